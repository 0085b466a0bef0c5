//go:build !js

package sandbox

import (
	"github.com/interopio/code-mode/sandbox/internal/wazerohost"
	"github.com/interopio/code-mode/sandbox/wasmhost"
)

func defaultBackend() wasmhost.Backend { return wazerohost.Backend() }

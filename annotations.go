package codemode

import (
	"maps"
	"reflect"
)

// cloneAnnotations copies a tool's annotations deeply: the map, and the
// maps, slices and arrays in it however deep (a nested map is shared state
// as much as the outer one: a host writing into its own after registering,
// or a filter or interceptor into the copy it was handed, changed what
// every other caller saw). Other values are shared: strings, numbers and
// booleans cannot change, and a pointer or struct is the host's own (a
// struct's maps too: fields cannot all be set from here). A map or slice
// met again (a cycle, or shared within the annotations) is copied once.
func cloneAnnotations(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	// Most are flat (MCP's hints, an adapter's source): their copy is the
	// map's, without reflection's value per key, which was a third of
	// registering an MCP server's tools (twice a tool: the entry's and the
	// filter's copy).
	for _, v := range m {
		switch v.(type) {
		case nil, string, bool, float64:
		default:
			return deepCopy{}.of(reflect.ValueOf(m)).Interface().(map[string]any)
		}
	}
	return maps.Clone(m)
}

// deepCopy maps each map or slice copied to its copy.
type deepCopy map[copyKey]reflect.Value

type copyKey struct {
	t   reflect.Type
	ptr uintptr
	len int // a slice's: two slices of one array may differ in length
}

func (c deepCopy) of(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(c.of(v.Elem()))
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		k := copyKey{v.Type(), v.Pointer(), -1}
		if done, ok := c[k]; ok {
			return done
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		c[k] = out
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(it.Key(), c.of(it.Value()))
		}
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		k := copyKey{v.Type(), v.Pointer(), v.Len()}
		if done, ok := c[k]; ok {
			return done
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		c[k] = out
		c.fill(out, v)
		return out
	case reflect.Array:
		out := reflect.New(v.Type()).Elem()
		c.fill(out, v)
		return out
	}
	return v
}

// fill copies the elements of v (a slice or an array) into out.
func (c deepCopy) fill(out, v reflect.Value) {
	switch v.Type().Elem().Kind() {
	case reflect.Interface, reflect.Map, reflect.Slice, reflect.Array:
		for i := range v.Len() {
			out.Index(i).Set(c.of(v.Index(i)))
		}
	default:
		reflect.Copy(out, v)
	}
}

package jsonschema

import (
	"strconv"
	"strings"
)

// Position tells possible tokens in json.
type Position interface {
	collect(v any, ptr jsonPointer) map[jsonPointer]any
}

// --

type AllProp struct{}

func (AllProp) collect(v any, ptr jsonPointer) map[jsonPointer]any {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	m := map[jsonPointer]any{}
	for pname, pvalue := range obj {
		m[ptr.append(pname)] = pvalue
	}
	return m
}

// --

type AllItem struct{}

func (AllItem) collect(v any, ptr jsonPointer) map[jsonPointer]any {
	arr, ok := v.([]any)
	if !ok {
		return nil
	}
	m := map[jsonPointer]any{}
	for i, item := range arr {
		m[ptr.append(strconv.Itoa(i))] = item
	}
	return m
}

// --

type Prop string

func (p Prop) collect(v any, ptr jsonPointer) map[jsonPointer]any {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	pvalue, ok := obj[string(p)]
	if !ok {
		return nil
	}
	return map[jsonPointer]any{
		ptr.append(string(p)): pvalue,
	}
}

// --

type Item int

func (i Item) collect(v any, ptr jsonPointer) map[jsonPointer]any {
	arr, ok := v.([]any)
	if !ok {
		return nil
	}
	if i < 0 || int(i) >= len(arr) {
		return nil
	}
	return map[jsonPointer]any{
		ptr.append(strconv.Itoa(int(i))): arr[int(i)],
	}
}

// --

// SchemaPath tells where to look for subschema inside keyword.
type SchemaPath []Position

func schemaPath(path string) SchemaPath {
	var sp SchemaPath
	for _, tok := range strings.Split(path, "/") {
		var pos Position
		switch tok {
		case "*":
			pos = AllProp{}
		case "[]":
			pos = AllItem{}
		default:
			if i, err := strconv.Atoi(tok); err == nil {
				pos = Item(i)
			} else {
				pos = Prop(tok)
			}
		}
		sp = append(sp, pos)
	}
	return sp
}

// each calls f with each subschema that sp finds in v (at ptr), one by
// one, without a map of them all.
//
// code-mode patch: an anyOf of 100,000 alternatives built three maps of
// 100,000 pointers (here, in collect and in collectResources) before the
// compile read its first alternative and asked its stop (Compiler.StopWhen).
func (sp SchemaPath) each(v any, ptr jsonPointer, f func(jsonPointer, any) error) error {
	if len(sp) == 0 {
		return f(ptr, v)
	}
	rest := sp[1:]
	switch p := sp[0].(type) {
	case AllProp:
		obj, _ := v.(map[string]any)
		for k, x := range obj {
			if err := rest.each(x, ptr.append(k), f); err != nil {
				return err
			}
		}
	case AllItem:
		arr, _ := v.([]any)
		for i, x := range arr {
			if err := rest.each(x, ptr.append(strconv.Itoa(i)), f); err != nil {
				return err
			}
		}
	default: // Prop and Item: one at most
		for q, x := range p.collect(v, ptr) {
			if err := rest.each(x, q, f); err != nil {
				return err
			}
		}
	}
	return nil
}

func (sp SchemaPath) String() string {
	var sb strings.Builder
	for _, pos := range sp {
		if sb.Len() != 0 {
			sb.WriteByte('/')
		}
		switch pos := pos.(type) {
		case AllProp:
			sb.WriteString("*")
		case AllItem:
			sb.WriteString("[]")
		case Prop:
			sb.WriteString(string(pos))
		case Item:
			sb.WriteString(strconv.Itoa(int(pos)))
		}
	}
	return sb.String()
}

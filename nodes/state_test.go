package nodes

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
	"unsafe"
)

// fill sets every field of v, exported or not, to a non-zero value, so that
// a field the JSON form forgets shows up as a difference.
func fill(t *testing.T, v reflect.Value, path string) {
	t.Helper()
	if !v.CanSet() {
		v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	}
	if v.Type() == reflect.TypeFor[time.Time]() {
		v.Set(reflect.ValueOf(time.Date(2026, 3, 14, 15, 9, 26, 5, time.UTC)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(path)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(int64(len(path)))
	case reflect.Float64, reflect.Float32:
		v.SetFloat(float64(len(path)) / 7)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 2, 2)
		fill(t, s.Index(0), path+"[0]")
		fill(t, s.Index(1), path+"[1]")
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k := reflect.New(v.Type().Key()).Elem()
		fill(t, k, path+".key")
		e := reflect.New(v.Type().Elem()).Elem()
		fill(t, e, path+".value")
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(t, v.Field(i), path+"."+v.Type().Field(i).Name)
		}
	default:
		t.Fatalf("%s: a %s cannot be checkpointed as JSON; use plain values", path, v.Kind())
	}
}

func TestStateJSONRoundTrip(t *testing.T) {
	var s State
	fill(t, reflect.ValueOf(&s).Elem(), "State")
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back State
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, s) {
		bv, sv := reflect.ValueOf(&back).Elem(), reflect.ValueOf(&s).Elem()
		for i := range sv.NumField() {
			if !reflect.DeepEqual(open(bv.Field(i)).Interface(), open(sv.Field(i)).Interface()) {
				t.Errorf("State.%s does not survive a checkpoint: add it to internalState (state.go)", sv.Type().Field(i).Name)
			}
		}
	}
}

// open makes an unexported field readable.
func open(v reflect.Value) reflect.Value {
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

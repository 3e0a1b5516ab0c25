package server

import (
	"bytes"
	"encoding/json"
)

// marshal encodes v as one line of JSON without escaping <, > and &:
// nothing here is embedded in HTML, and messages read better as written.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

package nodes

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// unit is a unit of measure: its dimension and its size in the dimension's
// base unit (metre, gram, litre, second).
type unit struct {
	dim  string
	size float64
	name string
}

var units = map[string]unit{}

func init() {
	add := func(dim string, size float64, name string, aliases ...string) {
		for _, a := range append(aliases, name) {
			units[a] = unit{dim, size, name}
		}
	}
	add("length", 0.001, "millimetres", "mm", "millimeter", "millimeters", "millimetre")
	add("length", 0.01, "centimetres", "cm", "centimeter", "centimeters", "centimetre")
	add("length", 1, "metres", "m", "meter", "meters", "metre")
	add("length", 1000, "kilometres", "km", "kilometer", "kilometers", "kilometre")
	add("length", 0.0254, "inches", "inch", "in")
	add("length", 0.3048, "feet", "foot", "ft")
	add("length", 0.9144, "yards", "yard", "yd")
	add("length", 1609.344, "miles", "mile", "mi")
	add("mass", 1, "grams", "g", "gram")
	add("mass", 1000, "kilograms", "kg", "kilo", "kilos", "kilogram")
	add("mass", 28.349523125, "ounces", "oz", "ounce")
	add("mass", 453.59237, "pounds", "lb", "lbs", "pound")
	add("mass", 6350.29318, "stone", "stones")
	add("volume", 0.001, "millilitres", "ml", "milliliter", "milliliters", "millilitre")
	add("volume", 1, "litres", "l", "liter", "liters", "litre")
	add("volume", 0.00492892159375, "teaspoons", "tsp", "teaspoon")
	add("volume", 0.01478676478125, "tablespoons", "tbsp", "tablespoon")
	add("volume", 0.2365882365, "cups", "cup")
	add("volume", 0.473176473, "pints", "pint")
	add("volume", 0.946352946, "quarts", "quart")
	add("volume", 3.785411784, "gallons", "gallon", "gal")
	add("time", 1, "seconds", "s", "sec", "second")
	add("time", 60, "minutes", "min", "minute")
	add("time", 3600, "hours", "h", "hr", "hour")
	add("time", 86400, "days", "day")
	add("time", 604800, "weeks", "week")
}

var (
	convertPattern = regexp.MustCompile(`(?i)(-?\d+(?:\.\d+)?)\s*(°\s*)?([a-z]+)\.?\s+(?:in|to|into|is how many|are how many)\s+(?:°\s*)?([a-z]+)`)
	howManyPattern = regexp.MustCompile(`(?i)how many\s+([a-z]+)\s+(?:are\s+)?(?:in|per)\s+(?:a|an|one|(\d+(?:\.\d+)?))\s+([a-z]+)`)
)

// convertUnits answers "5 miles in km", "how many ounces in a pound" and
// temperatures between Celsius and Fahrenheit.
func convertUnits(q string) (string, bool) {
	if m := convertPattern.FindStringSubmatch(q); m != nil {
		x, _ := strconv.ParseFloat(m[1], 64)
		if s, ok := convert(x, m[3], m[4]); ok {
			return s, true
		}
	}
	if m := howManyPattern.FindStringSubmatch(q); m != nil {
		x := 1.0
		if m[2] != "" {
			x, _ = strconv.ParseFloat(m[2], 64)
		}
		if s, ok := convert(x, m[3], m[1]); ok {
			return s, true
		}
	}
	return "", false
}

func convert(x float64, from, to string) (string, bool) {
	from, to = strings.ToLower(from), strings.ToLower(to)
	if c, f := isTemp(from), isTemp(to); c != "" && f != "" && c != f {
		var y float64
		if c == "C" {
			y = x*9/5 + 32
		} else {
			y = (x - 32) * 5 / 9
		}
		return fmt.Sprintf("%s °%s is %s °%s.", num(x), c, num(y), f), true
	}
	a, ok1 := units[from]
	b, ok2 := units[to]
	if !ok1 || !ok2 || a.dim != b.dim {
		return "", false
	}
	return fmt.Sprintf("%s %s is %s %s.", num(x), a.name, num(x*a.size/b.size), b.name), true
}

func isTemp(u string) string {
	switch u {
	case "c", "celsius", "centigrade":
		return "C"
	case "f", "fahrenheit":
		return "F"
	}
	return ""
}

package nodes

import (
	"regexp"
	"strings"
	"unicode"
)

var (
	// wordish finds runs of letters and digits joined by the separators
	// identifiers use: "INV-2024-0117", "v2.3.0", "2024-03-12", "192.168.1.1".
	wordish = regexp.MustCompile(`[\p{L}\p{N}]+(?:[-_/.:][\p{L}\p{N}]+)*`)
	// quantityToken is a number with an ordinal or unit suffix: "1st",
	// "6th", "10am", "401k", "100mb", "5km". A quantity, not a code.
	quantityToken = regexp.MustCompile(`(?i)^\d+(?:[.,]\d+)?(?:st|nd|rd|th|am|pm|k|m|bn|kb|mb|gb|tb|km|kg|cm|mm|ml|mg|lb|lbs|ft|hz|khz|mhz|ghz|px|ms|s|h|hr|hrs|min|mins|yr|yrs)$`)
	// multiplication written without spaces: "12x7", "3×4.5".
	timesToken = regexp.MustCompile(`(?i)^\d+(?:\.\d+)?[x×]\d+(?:\.\d+)?$`)
	// phone numbers and IBANs, which spaces split into several runs.
	phonePattern = regexp.MustCompile(`\+\d{1,3}[\s-]?\(?\d{1,4}\)?(?:[\s-]?\d{2,4}){2,}|\(\d{3}\)\s?\d{3}[-\s]\d{4}|\b\d{3}-\d{4}\b`)
	ibanPattern  = regexp.MustCompile(`\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,3})?\b`)
)

// maskIdentifiers replaces what only looks like arithmetic with "§" (no
// word, no digit): codes that mix letters and digits ("INV-2024-0117", "E-RESTIC-17",
// "v2.3.0"), runs of three or more number groups (ISO dates, IP addresses,
// dotted versions, "555-123-4567"), dashed groups with a leading zero
// ("2024-0117"), phone numbers and IBANs. What is left keeps real
// calculations: "12 - 7", "12-7", "3x4", "15% of 68".
func maskIdentifiers(q string) string {
	q = ibanPattern.ReplaceAllString(q, "§")
	q = phonePattern.ReplaceAllString(q, "§")
	return wordish.ReplaceAllStringFunc(q, func(w string) string {
		if isIdentifierToken(w) {
			return "§"
		}
		return w
	})
}

// isIdentifierToken reports whether one run of letters, digits and
// separators is a code rather than a number or an expression.
func isIdentifierToken(w string) bool {
	if timesToken.MatchString(w) || quantityToken.MatchString(w) {
		return false
	}
	letters, digits := false, false
	for _, r := range w {
		switch {
		case unicode.IsLetter(r):
			letters = true
		case unicode.IsDigit(r):
			digits = true
		}
	}
	if !digits {
		return false
	}
	if letters {
		return true
	}
	groups := strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == '_' || r == '/' || r == '.' || r == ':' })
	switch {
	case len(groups) >= 3:
		return true
	case strings.ContainsAny(w, "_:"):
		return true
	case len(groups) == 2 && strings.Contains(w, "-"):
		// "2024-0117": a leading zero after the dash is a serial, not an
		// operand.
		return len(groups[1]) >= 2 && groups[1][0] == '0'
	}
	return false
}

// isArithmetic reports whether a query asks for a calculation, once
// identifiers are masked.
func isArithmetic(q string) bool {
	// Every calculation holds a digit, and masking adds none: most
	// questions need no pattern run at all.
	return strings.ContainsAny(q, digits) && arithmeticPattern.MatchString(maskIdentifiers(q))
}

const digits = "0123456789"

// mayHoldIdentifier reports whether q could match identifierPattern: each
// of its alternatives needs an ASCII digit, an underscore or a capital
// letter. It spares the pattern's backtracking on most questions.
func mayHoldIdentifier(q string) bool {
	return strings.ContainsAny(q, digits+"_ABCDEFGHIJKLMNOPQRSTUVWXYZ")
}

// dottedNamePattern finds dotted names that are identifiers, not files: a
// package and an exported name ("io.EOF", "context.WithCancel",
// "strings.NewReader") or a capitalised product name with a suffix
// ("Node.js", "Vue.js"). Versions ("2.23.0") are identifierPattern's.
var dottedNamePattern = regexp.MustCompile(`\b[a-z][a-z0-9_]*\.[A-Z]\w*\b|\b[A-Z][A-Za-z0-9]*\.(?:js|ts|NET|net|io)\b`)

// camelCase is a name with a capital inside it, as code spells names
// ("WaitGroup", "CrashLoopBackOff", "iPhone" is not: it needs two humps).
var camelCase = regexp.MustCompile(`^[A-Za-z][a-z]+[A-Z][a-z]+[A-Z]?\w*$`)

// clockTime is a time of day ("7:40", "14:05"), not a code.
var clockTime = regexp.MustCompile(`^\d{1,2}:\d{2}$`)

// hasCodeToken reports whether a query holds a token that mixes letters
// and digits or is a serial ("C02XK1ZZJG5H", "BL-M4", "0042_add_tags"):
// an exact term that needs a keyword search.
func hasCodeToken(q string) bool {
	for _, w := range wordish.FindAllString(q, -1) {
		if len(w) >= 3 && isIdentifierToken(w) && !clockTime.MatchString(w) || camelCase.MatchString(w) {
			return true
		}
	}
	return false
}

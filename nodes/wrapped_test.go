package nodes

import (
	"strings"
	"testing"

	"github.com/graphrag/graphrag"
)

// Text rendered from HTML wraps a long path at a slash and a compound at
// its hyphen. A quoted sentence keeps the path and the word whole; a line
// that ends a word before a new one (a dash between words, a path before
// a capitalised sentence, a folder's relative name, a URL's bare scheme)
// is still joined with a space.
func TestLineWrappedInsideAWordIsJoinedWhole(t *testing.T) {
	manual := "2.3. Module locations\n\n" +
		"Shared Zorblax plugins must be installed to /opt/zorblax/\n" +
		"plugins/site-wide. Private plugins of one application may be kept in its own\n" +
		"directory (or its conf/\n" +
		"for short), for instance /srv/app/zorblax-private-\n" +
		"plugins, and must never be found on the search path. Old releases used /var/lib/\n" +
		"The cache is fetched over http://\n" +
		"without checks and rebuilt at start -\n" +
		"the plugin index with it.\n"
	joined := strings.Join(unitTexts(splitUnits(manual, true)), "\n--\n")
	for _, want := range []string{"/opt/zorblax/plugins/site-wide.", "/srv/app/zorblax-private-plugins,", "/var/lib/ The cache", "start - the plugin index", "conf/ for short", "http:// without"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no unit holds %q; units:\n%s", want, joined)
		}
	}

	hit := fileHit("/usr/share/doc/zorblax/policy.txt.gz", "", manual)
	a := extractive("where must shared zorblax plugins be installed?", []graphrag.Hit{hit}, 2)
	if !strings.Contains(a.Text, "/opt/zorblax/plugins/site-wide") {
		t.Errorf("the answer breaks the path:\n%s", a.Text)
	}
}

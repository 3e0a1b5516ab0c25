package text

import "regexp"

// ChangelogRelease matches the line that opens an entry of a Debian
// changelog (deb-changelog(5); /usr/share/doc/*/changelog.Debian.gz):
// "package (version) distribution(s); urgency=…". Its submatch is the
// version, whatever the parentheses hold, dotted or not
// ("0+git20190715-1", "20-3"). Ingestion heads the chunks cut inside a
// long entry with it; the pipeline reads it as the heading of the entries
// under it.
var ChangelogRelease = regexp.MustCompile(`^[a-z0-9][a-z0-9+.-]* \(([^()\s]+)\) [^;]+; *urgency=\w+`)

#!/bin/sh
# deploy copies the site.

build_site() {
	make site
}

function upload {
	rsync -a site/ host:/srv/
}

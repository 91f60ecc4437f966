#!/bin/sh
# The program's help laid out for help2man (cmake/manpage.cmake): `tansaku --help`, then each
# subcommand's own help in a section of its own, so that the man page describes every
# subcommand and its options. help2man runs it under the name `tansaku` (a link to it, so that
# the page is named after the program) with --help or --version; TANSAKU_BIN is the program.
bin=${TANSAKU_BIN:?the program to describe}
[ "$1" = --version ] && exec "$bin" --version
subcommands() { "$@" --help | awk '/^Subcommands:/ { on = 1; next } on && NF { print $1 }'; }
section() {  # section WORDS...: one subcommand's help, its usage line as the section's first line
  printf '\nCommand %s:\n' "$*"
  "$bin" "$@" --help | awk 'NR == 1 { first = $0; next }
    /^Usage:/ { sub(/^Usage: /, ""); print "  " $0; print ""; print first; next }
    /^(Options|Positionals|Subcommands):$/ || /--help/ { next }
    { print }'
}
"$bin" --help | sed 1d | grep -v -- '--help-all'  # the first line: the page's own description
for s in $(subcommands "$bin"); do
  nested=$(subcommands "$bin" "$s")
  if [ -z "$nested" ]; then section "$s"; else for t in $nested; do section "$s" "$t"; done; fi
done

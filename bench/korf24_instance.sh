# Sourced by bench/korf24.sh and bench/korf24_all.sh: `korf24_instance ID` sets `tiles` (the
# start), `pub_len` and `pub_nodes` (Korf & Felner's length and generated nodes) from the
# instance file $data; exits 2 when the file has no such instance.
korf24_instance() {
  local line
  line=$(awk -v id="$1" '$1 == id && $1 !~ /^#/' "$data")
  [ -n "$line" ] || { echo "no instance $1 in $data" >&2; exit 2; }
  tiles=$(cut -d'#' -f1 <<<"$line" | awk '{$1=""; print}' | xargs)
  read -r pub_len pub_nodes <<<"$(cut -d'#' -f2 <<<"$line")"
}

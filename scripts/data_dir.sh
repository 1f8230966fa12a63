# Sourced by the timing scripts (not run): `data_dir ROOT` prints the data-set folder that holds
# scalable-ccd/, as an absolute physical path (links resolved): $CCDLAB_DATA when set, else
# ROOT/datasets (committed); or fails with a message saying what is missing.
data_dir() {
  local root="$1" d
  if [ -n "${CCDLAB_DATA:-}" ]; then
    if [ -d "$CCDLAB_DATA/scalable-ccd" ]; then
      (CDPATH='' cd -- "$CCDLAB_DATA" && pwd -P) || return 1
      return 0
    fi
    echo "CCDLAB_DATA=$CCDLAB_DATA has no scalable-ccd/ folder" >&2
    return 1
  fi
  for d in "$root/datasets"; do
    if [ -d "$d/scalable-ccd" ]; then
      (CDPATH='' cd -- "$d" && pwd -P) || return 1
      return 0
    fi
  done
  echo "no data sets under $root/datasets (restore them with git checkout -- datasets)" >&2
  return 1
}

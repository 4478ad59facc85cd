"""Rigging many characters: :mod:`rigsmith.batch.ray` runs one task per character on a
Ray cluster and writes what ``rigsmith rig DIR -o OUTDIR`` writes."""

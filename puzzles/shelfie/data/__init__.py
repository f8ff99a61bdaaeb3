"""Component data of My Shelfie (kept as a package so the JSON ships with kibitz)."""

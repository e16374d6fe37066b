//! (module being written: see the README for what lands here)

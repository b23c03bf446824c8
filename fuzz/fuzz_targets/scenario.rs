//! Fuzz target: `warsim::fuzzing::scenario` (see src/fuzzing.rs).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| warsim::fuzzing::scenario(data));

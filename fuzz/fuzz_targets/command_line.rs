//! Fuzz target: `warsim::fuzzing::command_line` (see src/fuzzing.rs).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| warsim::fuzzing::command_line(data));

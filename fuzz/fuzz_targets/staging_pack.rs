#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| stone_fuzz::run("staging_pack", data));

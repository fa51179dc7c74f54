//! Hostile inputs built byte by byte, for the tests of stone's parser limits.

/// A Parquet file with no rows whose schema nests `depth` groups (each with one child)
/// around one `INT32` column: the footer a hostile review used (20,000 deep in 160 KB) to
/// overflow the parquet crate's recursive schema builder. The footer is written by hand in
/// thrift's compact protocol, so that building it recurses nowhere.
pub fn nested_parquet(depth: usize) -> Vec<u8> {
    fn varint(out: &mut Vec<u8>, mut v: u64) {
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }
    fn name(out: &mut Vec<u8>, header: u8, text: &str) {
        out.push(header);
        varint(out, text.len() as u64);
        out.extend_from_slice(text.as_bytes());
    }
    // Field headers: (id delta << 4) | type; types: i32 5, i64 6, binary 8, list 9,
    // struct 12. i32 values are zigzag varints (1 → 2, 0 → 0).
    let mut footer = vec![0x15, 0x02]; // 1: version = 1
    footer.push(0x19); // 2: schema, a list of structs
    let elements = depth as u64 + 2;
    if elements < 15 {
        footer.push(((elements as u8) << 4) | 12);
    } else {
        footer.push(0xfc);
        varint(&mut footer, elements);
    }
    // The root: 4: name, 5: num_children = 1.
    name(&mut footer, 0x48, "schema");
    footer.extend_from_slice(&[0x15, 0x02, 0x00]);
    for level in 0..depth {
        // 3: repetition_type = REQUIRED, 4: name, 5: num_children = 1.
        footer.extend_from_slice(&[0x35, 0x00]);
        name(&mut footer, 0x18, &format!("g{level}"));
        footer.extend_from_slice(&[0x15, 0x02, 0x00]);
    }
    // The column: 1: type = INT32, 3: repetition_type = OPTIONAL, 4: name.
    footer.extend_from_slice(&[0x15, 0x02, 0x25, 0x02]);
    name(&mut footer, 0x18, "value");
    footer.push(0x00);
    footer.extend_from_slice(&[0x16, 0x00]); // 3: num_rows = 0
    footer.extend_from_slice(&[0x19, 0x0c]); // 4: row_groups = []
    footer.push(0x00);

    let mut file = b"PAR1".to_vec();
    file.extend_from_slice(&footer);
    file.extend_from_slice(&(footer.len() as u32).to_le_bytes());
    file.extend_from_slice(b"PAR1");
    file
}

//! Robustness: the parser returns a board or an error for any input, never
//! panics, and every board it returns is valid.

use npuzzle::board::parse_board;
use proptest::prelude::*;

fn assert_valid_if_ok(text: &str) {
    if let Ok(tiles) = parse_board(text) {
        let mut sorted = tiles.cells().to_vec();
        sorted.sort_unstable();
        assert!(sorted.iter().enumerate().all(|(i, &t)| i == t as usize));
        assert_eq!(tiles.width() * tiles.height(), tiles.cells().len());
    }
}

/// Tokens a near-miss board is made of.
fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => (0u32..20).prop_map(|n| n.to_string()),
        1 => Just("-1".to_owned()),
        1 => Just("x".to_owned()),
        1 => Just("#".to_owned()),
        1 => Just("99999999999999999999999".to_owned()),
        1 => Just("3.0".to_owned()),
        1 => Just("\u{ff}".to_owned()),
    ]
}

fn separator() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just(" "), Just(","), Just("\n"), Just(", "), Just("\t"), Just("\r\n"), Just(",,")]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        assert_valid_if_ok(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn near_miss_boards_never_panic(
        tokens in proptest::collection::vec((token(), separator()), 0..40),
    ) {
        let text: String = tokens.iter().flat_map(|(t, s)| [t.as_str(), *s]).collect();
        assert_valid_if_ok(&text);
    }

    #[test]
    fn shuffled_boards_with_one_edit_parse_or_fail_cleanly(
        width in 2usize..=9,
        seed in any::<u64>(),
        edit in 0usize..6,
        header in any::<bool>(),
    ) {
        let mut rng = crate::util::Rng(seed);
        let cells = rng.shuffle(width * width);
        let mut tokens: Vec<String> = cells.iter().map(ToString::to_string).collect();
        let at = rng.below(tokens.len());
        match edit {
            0 => { tokens.remove(at); }
            1 => { let copy = tokens[at].clone(); tokens.push(copy); }
            2 => tokens[at] = (width * width).to_string(),
            3 => tokens.insert(at, "junk".to_owned()),
            4 => tokens.swap(0, at),
            _ => {}
        }
        let mut text = String::new();
        if header {
            text = format!("{width}\n");
        }
        for row in tokens.chunks(width) {
            text.push_str(&row.join(" "));
            text.push('\n');
        }
        let parsed = parse_board(&text);
        if (edit == 4 || edit == 5) && width <= 8 {
            prop_assert!(parsed.is_ok(), "{text}");
        }
        assert_valid_if_ok(&text);
    }
}

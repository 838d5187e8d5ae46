//! Reading the files a course writes, through the library: scenario files, with defaults
//! applied and every problem named with its place, and course files, their options layered
//! over each dialect's defaults.

mod scenario_file {
    use boardgrade::error::ScenarioFileError;
    use boardgrade::scenario::load::parse_file;

    const GOOD: &str = r#"
game = "one-d-chess"
dialect = "project5"
points = 2
handout = { section = "Check move validity" }

[[scenario]]
name = "first"
steps = [
  { send = "create_board" },
  { send = "is_valid_move 9 BLACK", expect = "False\n" },
]

[[scenario]]
name = "second"
points = 0.5
handout.section = "Move a king"
[[scenario.steps]]
send = "move_king 8 LEFT"
"#;

    #[test]
    fn defaults_apply_and_scenarios_override() {
        let scenarios = parse_file("good.toml", GOOD).unwrap();
        assert_eq!(scenarios.len(), 2);
        assert_eq!(scenarios[0].points.to_string(), "2");
        assert_eq!(scenarios[1].points.to_string(), "0.5");
        assert_eq!(
            scenarios[0].handout.section.as_deref(),
            Some("Check move validity")
        );
        assert_eq!(scenarios[1].handout.section.as_deref(), Some("Move a king"));
        assert_eq!(
            scenarios[1].handout.seed.as_deref(),
            Some("000_78f0643f6cc5cf69.txt")
        );
        assert_eq!(scenarios[0].steps[1].expect.as_deref(), Some("False\n"));
        assert_eq!(scenarios[0].steps[1].line, 11);
        assert_eq!(scenarios[1].steps[0].send, "move_king 8 LEFT");
        assert_eq!(scenarios[0].line, 8);
    }

    fn error(source: &str) -> ScenarioFileError {
        parse_file("bad.toml", source).unwrap_err()
    }

    #[test]
    fn unknown_key_is_named_with_its_place() {
        let e = error(&GOOD.replace("{ send = \"create_board\" }", "{ sned = \"create_board\" }"));
        assert_eq!(
            (e.line, e.column, e.key.as_deref()),
            (10, 5, Some("sned")),
            "{e}"
        );
        let e = error(&GOOD.replace("points = 0.5", "pionts = 0.5"));
        assert_eq!((e.line, e.key.as_deref()), (16, Some("pionts")), "{e}");
        assert!(e.message.ends_with("(at scenario[1].pionts)"), "{e}");
    }

    #[test]
    fn bad_values_are_named_with_their_place() {
        let e = error(&GOOD.replace("dialect = \"project5\"", "dialect = \"project6\""));
        assert_eq!(
            (e.line, e.column, e.key.as_deref()),
            (3, 11, Some("dialect")),
            "{e}"
        );
        assert!(e.message.contains("csc110"), "{e}");
        let e = error(&GOOD.replace("game = \"one-d-chess\"", "game = \"checkers\""));
        assert_eq!((e.line, e.key.as_deref()), (2, Some("game")));
        let e = error(&GOOD.replace("points = 0.5", "points = -1.0"));
        assert_eq!((e.line, e.key.as_deref()), (16, Some("points")));
        for huge in ["1e308", "10000.5", "inf", "nan"] {
            let e = error(&GOOD.replace("points = 0.5", &format!("points = {huge}")));
            assert_eq!(
                (e.line, e.column, e.key.as_deref()),
                (16, 10, Some("points")),
                "{huge}: {e}"
            );
            assert!(e.message.contains("from 0 to 10000"), "{huge}: {e}");
        }
        let top = parse_file("good.toml", &GOOD.replace("points = 0.5", "points = 10000"));
        assert_eq!(top.unwrap()[1].points.to_string(), "10000");
        for fine in ["0.0005", "1.0001", "2.1234"] {
            let e = error(&GOOD.replace("points = 0.5", &format!("points = {fine}")));
            assert_eq!(
                (e.line, e.column, e.key.as_deref()),
                (16, 10, Some("points")),
                "{fine}: {e}"
            );
            assert!(
                e.message
                    .contains(&format!("thousandths of a point, and {fine} is finer")),
                "{e}"
            );
        }
        let finest = parse_file("good.toml", &GOOD.replace("points = 0.5", "points = 2.125"));
        assert_eq!(finest.unwrap()[1].points.to_string(), "2.125");
        let e = error(&GOOD.replace("points = 0.5", "points = \"many\""));
        assert_eq!(e.line, 16, "{e}");
        let e = error(&GOOD.replace("name = \"second\"", "name = \"first\""));
        assert_eq!((e.line, e.key.as_deref()), (15, Some("name")));
        let e = error("game = \"one-d-chess\"\ndialect = \"project5\"\n[[scenario]]\nname = \"x\"\noptions = { fast = true }\nsteps = [{ send = \"board\" }]\n");
        assert_eq!((e.line, e.key.as_deref()), (5, Some("options.fast")), "{e}");
        let e = error("[[scenario]\n");
        assert_eq!(e.line, 1, "{e}");
    }

    #[test]
    fn a_single_scenario_may_live_at_the_top_level() {
        let s = parse_file("one.toml", "name = \"solo\"\ngame = \"one-d-chess\"\ndialect = \"csc110\"\nsteps = [{ send = \"2\" }]\n").unwrap();
        assert_eq!(s[0].name, "solo");
        assert_eq!(s[0].dialect.name, "csc110");
    }
}

mod course_file {
    use boardgrade::compare::CompareMode;
    use boardgrade::error::ScenarioFileError;
    use boardgrade::games::variant::Catalogue;
    use boardgrade::games::{self, Game};
    use boardgrade::policy::Policy;
    use boardgrade::scenario::course::CoursePolicy;

    fn game(name: &str) -> &'static dyn Game {
        games::find(name).unwrap()
    }

    fn one_d(dialect: &str) -> &'static games::Dialect {
        game("one-d-chess").dialect(dialect).unwrap()
    }

    #[test]
    fn defaults_then_top_level_then_the_dialect_table() {
        let course = CoursePolicy::parse(
            "course.toml",
            "presentation_credit = 0.5\n[one-d-chess.project5]\nwhitespace = \"trailing\"\n",
            Catalogue::bundled(),
        )
        .unwrap();
        let csc110 = course.policy(game("one-d-chess"), one_d("csc110"));
        assert_eq!(csc110.whitespace(), CompareMode::TrailingWhitespace);
        assert_eq!(csc110.presentation_credit(), 0.5);
        let project5 = course.policy(game("one-d-chess"), one_d("project5"));
        assert_eq!(project5.whitespace(), CompareMode::TrailingWhitespace);
        let exact = CoursePolicy::parse("c.toml", "whitespace = \"exact\"\n", Catalogue::bundled())
            .unwrap();
        assert_eq!(
            exact
                .policy(game("one-d-chess"), one_d("csc110"))
                .whitespace(),
            CompareMode::Exact
        );
        assert_eq!(
            Policy::defaults(one_d("csc110").policy.options()).whitespace(),
            CompareMode::TrailingWhitespace
        );
        assert_eq!(
            Policy::defaults(one_d("project5").policy.options()).whitespace(),
            CompareMode::Exact
        );
    }

    fn error(source: &str) -> ScenarioFileError {
        CoursePolicy::parse("specs/course.toml", source, Catalogue::bundled()).unwrap_err()
    }

    #[test]
    fn the_course_sets_the_battery_seed() {
        let course = CoursePolicy::parse(
            "course.toml",
            "battery_seed = 20270101\n",
            Catalogue::bundled(),
        )
        .unwrap();
        assert_eq!(course.battery_seed, Some(20270101));
        let none = CoursePolicy::parse(
            "course.toml",
            "whitespace = \"exact\"\n",
            Catalogue::bundled(),
        )
        .unwrap();
        assert_eq!(none.battery_seed, None);
        for bad in [
            "battery_seed = -1\n",
            "battery_seed = \"2027\"\n",
            "battery_seed = 1.5\n",
        ] {
            let e = error(bad);
            assert_eq!(
                (e.line, e.key.as_deref()),
                (1, Some("battery_seed")),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn every_problem_names_file_line_column_and_key() {
        let e = error("whitespace = \"exact\"\n\n[one-d-chess.csc110]\n  presentaton_credit = 1\n");
        assert_eq!(
            (e.line, e.column, e.key.as_deref()),
            (4, 3, Some("one-d-chess.csc110.presentaton_credit")),
            "{e}"
        );
        assert!(
            e.to_string()
                .starts_with("specs/course.toml:4:3: key `one-d-chess.csc110.presentaton_credit`"),
            "{e}"
        );
        let e = error("[one-d-chess.project5]\naccept_castling_o = true\n");
        assert_eq!(
            (e.line, e.key.as_deref()),
            (2, Some("one-d-chess.project5.accept_castling_o")),
            "{e}"
        );
        let e = error("whitespce = \"exact\"\n");
        assert_eq!(
            (e.line, e.column, e.key.as_deref()),
            (1, 1, Some("whitespce")),
            "{e}"
        );
        let e = error("[one-d-chess.csc111]\n");
        assert_eq!(
            (e.line, e.key.as_deref()),
            (1, Some("one-d-chess.csc111")),
            "{e}"
        );
        let e = error("whitespace = \"some\"\n");
        assert_eq!(
            (e.line, e.column, e.key.as_deref()),
            (1, 14, Some("whitespace")),
            "{e}"
        );
        let e = error("presentation_credit = 2\n");
        assert!(e.message.contains("0 to 1"), "{e}");
        let e = error("presentation_credit = = 2\n");
        assert_eq!(e.line, 1, "{e}");
    }
}

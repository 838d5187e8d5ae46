//! The `specs/` folder as it was when boardgrade was built: each file's path below `specs/`
//! and its text. Scenario sources read the scenario and course files among them, the bundled
//! variant catalogue (`games::variant::Catalogue::bundled`) the variant files.

include!(concat!(env!("OUT_DIR"), "/bundled_specs.rs"));

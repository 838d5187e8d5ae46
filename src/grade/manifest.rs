//! `run.json` in a results folder: which submissions a run graded (in the class's order),
//! which it skipped, whether it finished, and its share of a partitioned class. `merge`
//! joins partitioned runs from these.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::store::Stored;
use super::{Partition, Skipped, Store};
use crate::error::{ClassError, Error};

const FILE: &str = "run.json";
const VERSION: u32 = 1;

/// One submission of a run and its place in the whole class.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Member {
    pub id: String,
    pub position: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Manifest {
    pub version: u32,
    /// `K/N` for a partitioned run.
    pub partition: Option<String>,
    /// False while grading, and after an interruption.
    pub complete: bool,
    pub submissions: Vec<Member>,
    pub skipped: Vec<Skipped>,
    /// Each scenario file graded against and the hash of its scenarios: shares graded
    /// against different scenarios are never merged.
    #[serde(default)]
    pub scenario_files: BTreeMap<String, String>,
}

impl Manifest {
    pub fn new(
        partition: Option<Partition>,
        submissions: Vec<Member>,
        skipped: Vec<Skipped>,
        scenario_files: BTreeMap<String, String>,
    ) -> Self {
        Manifest {
            version: VERSION,
            partition: partition.map(|p| p.to_string()),
            complete: false,
            submissions,
            skipped,
            scenario_files,
        }
    }

    pub fn write(&self, out: &Path) -> Result<(), Error> {
        let text = serde_json::to_vec_pretty(self).map_err(|e| Error::encode(FILE, e))?;
        crate::atomic::write(&out.join(FILE), &text)
    }

    pub fn read(out: &Path) -> Result<Manifest, Error> {
        let path = out.join(FILE);
        let text = std::fs::read(&path).map_err(|e| {
            Error::path(
                &path,
                format!("cannot read ({e}); is this the --out folder of a grade run?"),
            )
        })?;
        serde_json::from_slice(&text)
            .map_err(|e| Error::path(&path, format!("not a run manifest: {e}")))
    }
}

/// The results and skipped members of partitioned runs `parts`, in the class's order: each
/// run must have finished, and together they must be shares 1 to N of one N, each once.
pub fn join(parts: &[PathBuf]) -> Result<Joined, Error> {
    let manifests: Vec<Manifest> = parts
        .iter()
        .map(|p| Manifest::read(p))
        .collect::<Result<_, _>>()?;
    let mut shares: Vec<Partition> = Vec::new();
    for (part, manifest) in parts.iter().zip(&manifests) {
        if !manifest.complete {
            return Err(Error::path(
                part,
                "this run did not finish; run it again (with --resume)",
            ));
        }
        let share: Partition = manifest
            .partition
            .as_deref()
            .unwrap_or("1/1")
            .parse()
            .map_err(|e: String| Error::path(part, e))?;
        if shares.contains(&share) {
            return Err(Error::path(part, format!("share {share} is given twice")));
        }
        shares.push(share);
    }
    same_scenarios(parts, &manifests)?;
    let count = shares[0].count;
    if shares.iter().any(|s| s.count != count) {
        return Err(ClassError::SharesDiffer.into());
    }
    if shares.len() != count as usize {
        let missing: Vec<String> = (1..=count)
            .filter(|k| !shares.iter().any(|s| s.index == *k))
            .map(|k| format!("{k}/{count}"))
            .collect();
        return Err(ClassError::MissingShares { missing }.into());
    }
    let mut members: Vec<(usize, Stored)> = Vec::new();
    for (part, manifest) in parts.iter().zip(&manifests) {
        let store = Store::open(&part.join("submissions"))?;
        for member in &manifest.submissions {
            let result = store.load_id(&member.id).ok_or_else(|| {
                Error::path(part, format!("no stored result for {:?}", member.id))
            })?;
            members.push((member.position, result));
        }
    }
    members.sort_by_key(|(position, _)| *position);
    Ok(Joined {
        results: members.into_iter().map(|(_, r)| r).collect(),
        skipped: manifests[0].skipped.clone(),
        scenario_files: manifests[0].scenario_files.clone(),
    })
}

/// Refuses shares graded against different scenarios (a file edited, added or removed
/// between two runs), naming the files and the shares.
fn same_scenarios(parts: &[PathBuf], manifests: &[Manifest]) -> Result<(), Error> {
    let first = &manifests[0].scenario_files;
    for (part, manifest) in parts.iter().zip(manifests).skip(1) {
        let theirs = &manifest.scenario_files;
        let differ: Vec<String> = first
            .keys()
            .chain(theirs.keys())
            .filter(|file| first.get(*file) != theirs.get(*file))
            .cloned()
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect();
        if !differ.is_empty() {
            return Err(ClassError::ScenariosDiffer {
                first: parts[0].display().to_string(),
                other: part.display().to_string(),
                files: differ,
            }
            .into());
        }
    }
    Ok(())
}

/// Partitioned runs joined: the class's results in order, what was skipped, and the
/// scenario files they were all graded against.
#[derive(Debug, Clone)]
pub struct Joined {
    /// Each share's results, with the keys they were stored under.
    pub results: Vec<Stored>,
    pub skipped: Vec<Skipped>,
    pub scenario_files: BTreeMap<String, String>,
}

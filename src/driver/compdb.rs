//! Compilation databases (`compile_commands.json`, as CMake and Bear write them): the `-I`,
//! `-isystem` and `-D` flags of a file's entry feed the CUDA front end, like clang-tidy's `-p`.
//! `-std`, `-arch`/`--gpu-architecture`, `-gencode` and every other flag are accepted and have no
//! effect (the front end has one dialect and no architecture-dependent semantics).
//!
//! Without `-p`, the database is searched for upward from each file's directory, the nearest one
//! winning; a file without an entry in it is processed with the command line's flags only.

use super::Failure;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The front-end flags one entry contributes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    /// `-I` then `-isystem` directories, absolute (relative ones resolved against the entry's
    /// `directory`), in order.
    pub include_dirs: Vec<PathBuf>,
    /// `-D` definitions as written (`NAME` or `NAME=VALUE`), in order.
    pub defines: Vec<String>,
}

/// One database: canonical source path → flags.
#[derive(Debug, Default)]
pub struct Database {
    entries: HashMap<PathBuf, Flags>,
}

#[derive(serde::Deserialize)]
struct Entry {
    directory: PathBuf,
    file: PathBuf,
    #[serde(default)]
    arguments: Option<Vec<String>>,
    #[serde(default)]
    command: Option<String>,
}

impl Database {
    /// Reads `compile_commands.json` at `path`; a malformed file is an error naming it.
    pub fn load(path: &Path) -> Result<Database, Failure> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Failure::Usage(format!("cannot read {}: {e}", path.display())))?;
        Database::parse(&text, path.parent().unwrap_or(Path::new(".")))
            .map_err(|e| Failure::Usage(format!("{}: {e}", path.display())))
    }

    /// Parses a database's text; relative `directory` fields are relative to `base`.
    pub fn parse(text: &str, base: &Path) -> Result<Database, String> {
        let entries: Vec<Entry> =
            serde_json::from_str(text).map_err(|e| format!("not a compilation database: {e}"))?;
        let mut db = Database::default();
        for e in entries {
            let dir = base.join(&e.directory);
            let args = match (e.arguments, e.command) {
                (Some(a), _) => a,
                (None, Some(c)) => split_command(&c),
                (None, None) => {
                    return Err(format!("entry for {}: neither `arguments` nor `command`", e.file.display()))
                }
            };
            let file = dir.join(&e.file);
            let key = std::fs::canonicalize(&file).unwrap_or(file);
            // The first entry of a file wins, as in clang tooling.
            db.entries.entry(key).or_insert_with(|| flags_of(&args, &dir));
        }
        Ok(db)
    }

    /// The flags of the entry for `file`, if it has one.
    pub fn flags(&self, file: &Path) -> Option<&Flags> {
        let key = std::fs::canonicalize(file).ok()?;
        self.entries.get(&key)
    }
}

/// Where a run's files find their database.
pub enum Source {
    /// `-p DIR` (or a path to the JSON file itself): one database for every file.
    Fixed(Arc<Database>),
    /// The nearest `compile_commands.json` above each file; directories already searched are
    /// remembered.
    Discover(Mutex<HashMap<PathBuf, Option<Arc<Database>>>>),
}

impl Source {
    /// `-p` if given, else discovery.
    pub fn new(build_path: Option<&Path>) -> Result<Source, Failure> {
        match build_path {
            Some(p) => {
                let file = if p.is_dir() { p.join("compile_commands.json") } else { p.to_path_buf() };
                Ok(Source::Fixed(Arc::new(Database::load(&file)?)))
            }
            None => Ok(Source::Discover(Mutex::new(HashMap::new()))),
        }
    }

    /// The database entry's flags for `file` (none when no database or no entry).
    pub fn flags(&self, file: &Path) -> Result<Option<Flags>, Failure> {
        let db = match self {
            Source::Fixed(db) => Some(db.clone()),
            Source::Discover(cache) => self.discover(cache, file)?,
        };
        Ok(db.and_then(|db| db.flags(file).cloned()))
    }

    fn discover(
        &self,
        cache: &Mutex<HashMap<PathBuf, Option<Arc<Database>>>>,
        file: &Path,
    ) -> Result<Option<Arc<Database>>, Failure> {
        let Ok(abs) = std::fs::canonicalize(file) else { return Ok(None) };
        let mut searched = Vec::new();
        let mut found = None;
        for dir in abs.ancestors().skip(1) {
            if let Some(hit) = cache.lock().map_err(|_| poisoned())?.get(dir) {
                found = hit.clone();
                break;
            }
            searched.push(dir.to_path_buf());
            let candidate = dir.join("compile_commands.json");
            if candidate.is_file() {
                found = Some(Arc::new(Database::load(&candidate)?));
                break;
            }
        }
        let mut cache = cache.lock().map_err(|_| poisoned())?;
        for d in searched {
            cache.insert(d, found.clone());
        }
        Ok(found)
    }
}

fn poisoned() -> Failure {
    Failure::Usage("internal: a worker thread panicked while reading a compilation database".into())
}

/// The front-end flags of a compiler command line (`args[0]` is the compiler).
pub fn flags_of(args: &[String], dir: &Path) -> Flags {
    let mut flags = Flags::default();
    let mut system = Vec::new();
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        // `-I DIR`, `-IDIR`, nvcc's `--include-path DIR` / `--include-path=DIR` (and `-D` alike).
        let mut take = |short: &str, long: &str| -> Option<String> {
            if a == short || a == long {
                return it.next().cloned();
            }
            a.strip_prefix(&format!("{long}=")).or_else(|| a.strip_prefix(short)).map(str::to_string)
        };
        if let Some(d) = take("-isystem", "--system-include") {
            system.push(dir.join(d));
        } else if let Some(d) = take("-I", "--include-path") {
            flags.include_dirs.push(dir.join(d));
        } else if let Some(d) = take("-D", "--define-macro") {
            flags.defines.push(d);
        }
    }
    flags.include_dirs.extend(system);
    flags
}

/// Splits a `command` string like a POSIX shell does for words: blanks separate, quotes group,
/// a backslash escapes the next character (outside single quotes).
pub fn split_command(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => match chars.next() {
                            Some(n @ ('"' | '\\' | '$' | '`')) => word.push(n),
                            Some(n) => {
                                word.push('\\');
                                word.push(n);
                            }
                            None => word.push('\\'),
                        },
                        _ => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(n) = chars.next() {
                    word.push(n);
                }
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_strings_split_like_a_shell() {
        assert_eq!(
            split_command(r#"nvcc -I "a b" -DX='1 2' -DY=\"s\" k.cu"#),
            ["nvcc", "-I", "a b", "-DX=1 2", "-DY=\"s\"", "k.cu"]
        );
    }

    #[test]
    fn include_and_define_flags_in_every_spelling() {
        let args: Vec<String> =
            "nvcc -Iinc -I ../up --include-path=nv -isystem sys -DA -D B=2 --define-macro=C -std=c++17 -arch=sm_80 -c k.cu"
                .split(' ')
                .map(String::from)
                .collect();
        let f = flags_of(&args, Path::new("/b"));
        assert_eq!(f.include_dirs, ["/b/inc", "/b/../up", "/b/nv", "/b/sys"].map(PathBuf::from).to_vec());
        assert_eq!(f.defines, ["A", "B=2", "C"]);
    }
}

//! Reading a variant's keys over a dialect's values: each key checked alone, so that an error
//! names the one at fault (`tokens.left`), as every game's variant reader needs.

use serde::{Deserialize, Serialize};

use super::OptionError;

/// A string as TOML writes it, for the files `variant new` writes.
pub fn quoted(text: &str) -> String {
    toml::Value::String(text.to_string()).to_string()
}

pub fn string(value: &toml::Value, key: &str) -> Result<String, OptionError> {
    value.as_str().map(str::to_string).ok_or_else(|| {
        OptionError::new(
            key,
            format!("expected a string, found {}", value.type_str()),
        )
    })
}

pub fn table<'a>(value: &'a toml::Value, key: &str) -> Result<&'a toml::Table, OptionError> {
    value.as_table().ok_or_else(|| {
        OptionError::new(key, format!("expected a table, found {}", value.type_str()))
    })
}

/// `current` with the keys of the table `value` set over it; an unknown key or a value of
/// the wrong type is an error naming it (`key.sub`).
pub fn overlay<T>(current: &T, value: &toml::Value, key: &str) -> Result<T, OptionError>
where
    T: Serialize + for<'de> Deserialize<'de>,
{
    let given = table(value, key)?;
    let mut merged =
        toml::Table::try_from(current).map_err(|e| OptionError::new(key, e.to_string()))?;
    for (sub, value) in given {
        if !merged.contains_key(sub) {
            let known: Vec<&String> = merged.keys().collect();
            return Err(OptionError::new(
                format!("{key}.{sub}"),
                format!(
                    "unknown key; {key} has {}",
                    known
                        .iter()
                        .map(|k| k.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
        }
        merged.insert(sub.clone(), value.clone());
    }
    for (sub, value) in given {
        // Each key alone, so that the error names the one at fault.
        let mut one =
            toml::Table::try_from(current).map_err(|e| OptionError::new(key, e.to_string()))?;
        one.insert(sub.clone(), value.clone());
        T::deserialize(toml::Value::Table(one)).map_err(|e| {
            OptionError::new(format!("{key}.{sub}"), e.message().trim().to_string())
        })?;
    }
    T::deserialize(toml::Value::Table(merged))
        .map_err(|e| OptionError::new(key, e.message().trim().to_string()))
}

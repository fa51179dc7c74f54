//! Asset kinds and the engine each one is stored by.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// What a resource is, independently of its file format. The engine that stores a dataset
/// is chosen from this alone ([`AssetKind::engine`]), never from a file extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum AssetKind {
    Tabular,
    Graph,
    Raster,
    Array,
    Tiles,
    Blob,
    Geofeatures,
}

/// Where a dataset is stored on the platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Engine {
    /// One Iceberg table per dataset.
    Iceberg,
    /// One named graph per dataset (and branch) on a graph server.
    Graph,
    /// Objects in object storage.
    ObjectStorage,
}

impl AssetKind {
    pub const ALL: [AssetKind; 7] = [
        AssetKind::Tabular,
        AssetKind::Graph,
        AssetKind::Raster,
        AssetKind::Array,
        AssetKind::Tiles,
        AssetKind::Blob,
        AssetKind::Geofeatures,
    ];

    /// The one table that maps a kind to its engine.
    pub fn engine(self) -> Engine {
        match self {
            AssetKind::Tabular => Engine::Iceberg,
            AssetKind::Graph => Engine::Graph,
            // GEOFEATURES moves to Iceberg once the Iceberg library supports geometry.
            AssetKind::Raster
            | AssetKind::Array
            | AssetKind::Tiles
            | AssetKind::Blob
            | AssetKind::Geofeatures => Engine::ObjectStorage,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            AssetKind::Tabular => "TABULAR",
            AssetKind::Graph => "GRAPH",
            AssetKind::Raster => "RASTER",
            AssetKind::Array => "ARRAY",
            AssetKind::Tiles => "TILES",
            AssetKind::Blob => "BLOB",
            AssetKind::Geofeatures => "GEOFEATURES",
        }
    }
}

impl fmt::Display for AssetKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Parses a kind case-insensitively (`tabular`, `TABULAR`).
impl FromStr for AssetKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        AssetKind::ALL
            .into_iter()
            .find(|kind| kind.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                let accepted: Vec<String> = AssetKind::ALL
                    .iter()
                    .map(|k| k.as_str().to_ascii_lowercase())
                    .collect();
                format!(
                    "unknown kind `{s}`; accepted: {}{}",
                    accepted.join(", "),
                    crate::did_you_mean(
                        &s.to_ascii_lowercase(),
                        accepted.iter().map(String::as_str)
                    )
                    .map(|m| format!(" (did you mean `{m}`?)"))
                    .unwrap_or_default()
                )
            })
    }
}

impl Engine {
    pub fn as_str(self) -> &'static str {
        match self {
            Engine::Iceberg => "iceberg",
            Engine::Graph => "graph",
            Engine::ObjectStorage => "object_storage",
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_follows_kind_only() {
        let engines: Vec<_> = AssetKind::ALL
            .iter()
            .map(|k| (k.as_str(), k.engine().as_str()))
            .collect();
        assert_eq!(
            engines,
            [
                ("TABULAR", "iceberg"),
                ("GRAPH", "graph"),
                ("RASTER", "object_storage"),
                ("ARRAY", "object_storage"),
                ("TILES", "object_storage"),
                ("BLOB", "object_storage"),
                ("GEOFEATURES", "object_storage"),
            ]
        );
    }

    #[test]
    fn kind_parses_any_case_and_suggests() {
        assert_eq!("tabular".parse::<AssetKind>().unwrap(), AssetKind::Tabular);
        assert_eq!(
            "GeoFeatures".parse::<AssetKind>().unwrap(),
            AssetKind::Geofeatures
        );
        let err = "tabluar".parse::<AssetKind>().unwrap_err();
        assert!(err.contains("did you mean `tabular`?"), "{err}");
        assert!(
            "vector".parse::<AssetKind>().is_err(),
            "there is no vector kind"
        );
    }

    #[test]
    fn kind_serializes_uppercase() {
        assert_eq!(
            serde_json::to_string(&AssetKind::Geofeatures).unwrap(),
            "\"GEOFEATURES\""
        );
        assert_eq!(
            serde_json::to_string(&Engine::ObjectStorage).unwrap(),
            "\"object_storage\""
        );
    }
}

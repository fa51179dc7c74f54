//! File formats known by their extension, and the kind each one implies when a resource
//! does not declare its kind. Reading and converting formats lives in `stone-formats`.

use std::path::Path;

use serde::Serialize;

use crate::AssetKind;

/// A format recognized from a file or directory name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Csv,
    Tsv,
    Parquet,
    Turtle,
    NTriples,
    JsonLd,
    Tiff,
    Png,
    Jpeg,
    Jp2,
    Webp,
    Npy,
    Npz,
    Zarr,
    NetCdf,
    Hdf5,
    PmTiles,
    MbTiles,
    GeoJson,
    GeoPackage,
    FlatGeobuf,
    Shapefile,
}

/// Extensions (lowercase, without the dot) and the format they name.
const EXTENSIONS: &[(&str, Format)] = &[
    ("csv", Format::Csv),
    ("tsv", Format::Tsv),
    ("tab", Format::Tsv),
    ("parquet", Format::Parquet),
    ("ttl", Format::Turtle),
    ("nt", Format::NTriples),
    ("jsonld", Format::JsonLd),
    ("tif", Format::Tiff),
    ("tiff", Format::Tiff),
    ("png", Format::Png),
    ("jpg", Format::Jpeg),
    ("jpeg", Format::Jpeg),
    ("jp2", Format::Jp2),
    ("webp", Format::Webp),
    ("npy", Format::Npy),
    ("npz", Format::Npz),
    ("zarr", Format::Zarr),
    ("nc", Format::NetCdf),
    ("h5", Format::Hdf5),
    ("hdf5", Format::Hdf5),
    ("pmtiles", Format::PmTiles),
    ("mbtiles", Format::MbTiles),
    ("geojson", Format::GeoJson),
    ("gpkg", Format::GeoPackage),
    ("fgb", Format::FlatGeobuf),
    ("shp", Format::Shapefile),
];

impl Format {
    /// The format named by a path's extension, if it is one we know.
    pub fn detect(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        EXTENSIONS.iter().find(|(e, _)| *e == ext).map(|(_, f)| *f)
    }

    /// The kind a resource of this format has unless it declares another.
    pub fn kind(self) -> AssetKind {
        use Format::*;
        match self {
            Csv | Tsv | Parquet => AssetKind::Tabular,
            Turtle | NTriples | JsonLd => AssetKind::Graph,
            Tiff | Png | Jpeg | Jp2 | Webp => AssetKind::Raster,
            Npy | Npz | Zarr | NetCdf | Hdf5 => AssetKind::Array,
            PmTiles | MbTiles => AssetKind::Tiles,
            GeoJson | GeoPackage | FlatGeobuf | Shapefile => AssetKind::Geofeatures,
        }
    }
}

/// The kind of a resource at `path` when it declares none: by format, else BLOB.
pub fn detect_kind(path: &Path) -> (AssetKind, Option<Format>) {
    match Format::detect(path) {
        Some(format) => (format.kind(), Some(format)),
        None => (AssetKind::Blob, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_by_extension() {
        let cases = [
            ("a.csv", AssetKind::Tabular),
            ("a.TSV", AssetKind::Tabular),
            ("a.parquet", AssetKind::Tabular),
            ("g.ttl", AssetKind::Graph),
            ("g.nt", AssetKind::Graph),
            ("g.jsonld", AssetKind::Graph),
            ("r.tif", AssetKind::Raster),
            ("r.tiff", AssetKind::Raster),
            ("r.png", AssetKind::Raster),
            ("r.JPG", AssetKind::Raster),
            ("x.npy", AssetKind::Array),
            ("x.npz", AssetKind::Array),
            ("x.zarr", AssetKind::Array),
            ("x.nc", AssetKind::Array),
            ("x.h5", AssetKind::Array),
            ("t.pmtiles", AssetKind::Tiles),
            ("t.mbtiles", AssetKind::Tiles),
            ("f.geojson", AssetKind::Geofeatures),
            ("f.gpkg", AssetKind::Geofeatures),
            ("f.fgb", AssetKind::Geofeatures),
            ("f.shp", AssetKind::Geofeatures),
            ("b.bin", AssetKind::Blob),
            ("noext", AssetKind::Blob),
            ("data.csv.gz", AssetKind::Blob),
        ];
        for (name, kind) in cases {
            assert_eq!(detect_kind(Path::new(name)).0, kind, "{name}");
        }
    }
}

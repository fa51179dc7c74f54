//! Schemas: Arrow → Iceberg conversion, the compatibility check and merge, the table's
//! name mapping.
//!
//! One invariant makes the name mapping work across branches: within a table, a column
//! path (`a`, `a.b`, `a.element`) always gets the same field id, on every branch and in
//! every schema version. Files carry no field ids; readers find a column by name through
//! `schema.name-mapping.default`, which is one table-wide map from name to id. If two
//! branches gave the same new column different ids, one branch would read it as null.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

use ::iceberg::spec::{
    ListType, MapType, MappedField, NameMapping, NestedField, NestedFieldRef, PrimitiveType,
    Schema, StructType, TableMetadata, Type,
};
use arrow_schema::{DataType, Field, FieldRef, Fields, Schema as ArrowSchema};

use super::error::{IcebergError, IncompatibleChange};

/// Names the name mapping gives a list element, a map key and a map value. `element`,
/// `key` and `value` are what the Iceberg spec and pyiceberg use; `item` is the list
/// element name arrow-rs writes.
const LIST_ELEMENT_NAMES: [&str; 2] = ["element", "item"];
const MAP_KEY_NAME: &str = "key";
const MAP_VALUE_NAME: &str = "value";

/// A top-level column of a table schema, as reported to callers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// Iceberg field id.
    pub id: i32,
    /// Column name.
    pub name: String,
    /// Iceberg type as Iceberg prints it (`long`, `string`, `decimal(10, 2)`, `struct<…>`).
    pub data_type: String,
    /// Whether the column is required (never null).
    pub required: bool,
}

/// A compatible schema change applied by an append, or an incompatible one forced
/// through.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SchemaChange {
    /// A new column, added as optional (nullable) so the older files read as null.
    ColumnAdded {
        /// Dotted column path.
        column: String,
        /// Its Iceberg type.
        data_type: String,
    },
    /// A safe promotion: int→long, float→double, a larger decimal precision.
    ColumnWidened {
        /// Dotted column path.
        column: String,
        /// Old type.
        from: String,
        /// New type.
        to: String,
    },
    /// A required column became optional because the files allow nulls.
    ColumnMadeOptional {
        /// Dotted column path.
        column: String,
    },
    /// An incompatible change applied because of `force`: a changed type was replaced by
    /// the files' type, a missing required column was dropped.
    Forced {
        /// Dotted column path.
        column: String,
        /// The change.
        change: IncompatibleChange,
    },
}

/// The top-level columns of a schema.
pub(crate) fn columns(schema: &Schema) -> Vec<Column> {
    schema
        .as_struct()
        .fields()
        .iter()
        .map(|field| Column {
            id: field.id,
            name: field.name.clone(),
            data_type: field.field_type.to_string(),
            required: field.required,
        })
        .collect()
}

/// Converts the Arrow schema of a Parquet file into Iceberg fields. The field ids are
/// placeholders; [`merge`] assigns the real ones.
pub(crate) fn arrow_to_iceberg(
    arrow: &ArrowSchema,
    path: &Path,
) -> Result<Vec<NestedFieldRef>, IcebergError> {
    let mut fields = Vec::with_capacity(arrow.fields().len());
    // Field by field, so that an error names the column.
    for field in arrow.fields() {
        let plain = Field::new(
            field.name(),
            strip_dictionary(field.data_type()),
            field.is_nullable(),
        );
        let single = ArrowSchema::new(vec![plain]);
        let converted =
            ::iceberg::arrow::arrow_schema_to_schema_auto_assign_ids(&single).map_err(|e| {
                IcebergError::UnsupportedColumnType {
                    path: path.to_owned(),
                    column: field.name().clone(),
                    data_type: stone_formats::type_name(field.data_type()),
                    reason: e.message().to_owned(),
                }
            })?;
        fields.push(converted.as_struct().fields()[0].clone());
    }
    Ok(fields)
}

/// Dictionary encoding is a property of the file, not of the column's type.
fn strip_dictionary(data_type: &DataType) -> DataType {
    let strip_field = |field: &FieldRef| -> FieldRef {
        Arc::new(Field::new(
            field.name(),
            strip_dictionary(field.data_type()),
            field.is_nullable(),
        ))
    };
    match data_type {
        DataType::Dictionary(_, value) => strip_dictionary(value),
        DataType::List(field) => DataType::List(strip_field(field)),
        DataType::LargeList(field) => DataType::LargeList(strip_field(field)),
        DataType::ListView(field) => DataType::ListView(strip_field(field)),
        DataType::LargeListView(field) => DataType::LargeListView(strip_field(field)),
        DataType::FixedSizeList(field, size) => DataType::FixedSizeList(strip_field(field), *size),
        DataType::Struct(fields) => {
            DataType::Struct(fields.iter().map(strip_field).collect::<Fields>())
        }
        DataType::Map(field, sorted) => DataType::Map(strip_field(field), *sorted),
        other => other.clone(),
    }
}

/// Field ids of every column path that any schema of the table has used.
#[derive(Debug, Default)]
pub(crate) struct FieldIds {
    by_path: HashMap<Vec<String>, i32>,
}

impl FieldIds {
    /// Collects the ids of all schemas, the current schema first (it wins if history ever
    /// disagrees).
    pub(crate) fn of_table(metadata: &TableMetadata) -> Self {
        let mut ids = Self::default();
        let current = metadata.current_schema();
        ids.collect(&[], current.as_struct().fields());
        for schema in metadata.schemas_iter() {
            ids.collect(&[], schema.as_struct().fields());
        }
        ids
    }

    fn collect(&mut self, prefix: &[String], fields: &[NestedFieldRef]) {
        for field in fields {
            let path = child(prefix, &field.name);
            self.by_path.entry(path.clone()).or_insert(field.id);
            self.collect_type(&path, &field.field_type);
        }
    }

    fn collect_type(&mut self, path: &[String], field_type: &Type) {
        match field_type {
            Type::Primitive(_) => {}
            Type::Struct(fields) => self.collect(path, fields.fields()),
            Type::List(list) => {
                let element = child(path, LIST_ELEMENT_NAMES[0]);
                self.by_path
                    .entry(element.clone())
                    .or_insert(list.element_field.id);
                self.collect_type(&element, &list.element_field.field_type);
            }
            Type::Map(map) => {
                for (name, field) in [
                    (MAP_KEY_NAME, &map.key_field),
                    (MAP_VALUE_NAME, &map.value_field),
                ] {
                    let path = child(path, name);
                    self.by_path.entry(path.clone()).or_insert(field.id);
                    self.collect_type(&path, &field.field_type);
                }
            }
        }
    }
}

fn child(prefix: &[String], name: &str) -> Vec<String> {
    let mut path = prefix.to_vec();
    path.push(name.to_owned());
    path
}

fn dotted(path: &[String]) -> String {
    path.join(".")
}

/// An incompatibility found by [`merge`], already resolved in favour of the files in the
/// merged fields.
#[derive(Debug, Clone)]
pub(crate) struct Conflict {
    pub column: String,
    pub change: IncompatibleChange,
}

/// Result of merging the files' schema into a branch schema.
#[derive(Debug)]
pub(crate) struct Merged {
    /// The merged top-level fields, final ids. If `conflicts` is not empty, they are
    /// resolved as `force` resolves them.
    pub fields: Vec<NestedFieldRef>,
    pub changes: Vec<SchemaChange>,
    pub conflicts: Vec<Conflict>,
    /// Highest field id handed out so far.
    pub last_column_id: i32,
}

/// Merges the schema of incoming files into `base`.
///
/// Rules: a column in both keeps its id; the types must be equal or one must promote to
/// the other (the wider one wins: a file narrower than the table is read through
/// promotion); a column only in the files is added as optional; an optional column only in
/// `base` stays; a required column only in `base` and any other type difference are
/// conflicts. A conflict is resolved in favour of the files (their type, the column
/// dropped) and reported, so the caller decides between refusing and forcing.
///
/// `creating`: `base` is empty because the table is being created; the files'
/// requiredness then holds for the top-level columns too.
pub(crate) fn merge(
    base: &[NestedFieldRef],
    incoming: &[NestedFieldRef],
    ids: &FieldIds,
    last_column_id: i32,
    creating: bool,
) -> Merged {
    let mut merger = Merger {
        ids,
        creating,
        last_column_id,
        used: HashSet::new(),
        changes: Vec::new(),
        conflicts: Vec::new(),
    };
    collect_used(base, &mut merger.used);
    let fields = merger.merge_fields(&[], base, incoming);
    Merged {
        fields,
        changes: merger.changes,
        conflicts: merger.conflicts,
        last_column_id: merger.last_column_id,
    }
}

fn collect_used(fields: &[NestedFieldRef], used: &mut HashSet<i32>) {
    fn of_type(field_type: &Type, used: &mut HashSet<i32>) {
        match field_type {
            Type::Primitive(_) => {}
            Type::Struct(fields) => collect_used(fields.fields(), used),
            Type::List(list) => {
                used.insert(list.element_field.id);
                of_type(&list.element_field.field_type, used);
            }
            Type::Map(map) => {
                for field in [&map.key_field, &map.value_field] {
                    used.insert(field.id);
                    of_type(&field.field_type, used);
                }
            }
        }
    }
    for field in fields {
        used.insert(field.id);
        of_type(&field.field_type, used);
    }
}

struct Merger<'a> {
    ids: &'a FieldIds,
    creating: bool,
    last_column_id: i32,
    used: HashSet<i32>,
    changes: Vec<SchemaChange>,
    conflicts: Vec<Conflict>,
}

impl Merger<'_> {
    /// The id of a column path: the one the table already uses for it, else a new one.
    fn id_for(&mut self, path: &[String]) -> i32 {
        if let Some(&id) = self.ids.by_path.get(path)
            && self.used.insert(id)
        {
            return id;
        }
        self.last_column_id += 1;
        self.used.insert(self.last_column_id);
        self.last_column_id
    }

    fn merge_fields(
        &mut self,
        prefix: &[String],
        base: &[NestedFieldRef],
        incoming: &[NestedFieldRef],
    ) -> Vec<NestedFieldRef> {
        let mut merged = Vec::with_capacity(base.len().max(incoming.len()));
        for old in base {
            let path = child(prefix, &old.name);
            match incoming.iter().find(|field| field.name == old.name) {
                Some(new) => merged.push(Arc::new(self.merge_field(&path, old, new))),
                None if old.required => self.conflicts.push(Conflict {
                    column: dotted(&path),
                    change: IncompatibleChange::RequiredColumnMissing,
                }),
                None => merged.push(old.clone()),
            }
        }
        for new in incoming {
            if base.iter().any(|old| old.name == new.name) {
                continue;
            }
            let path = child(prefix, &new.name);
            let field = self.fresh_field(&path, new, self.creating && prefix.is_empty());
            self.changes.push(SchemaChange::ColumnAdded {
                column: dotted(&path),
                data_type: field.field_type.to_string(),
            });
            merged.push(Arc::new(field));
        }
        merged
    }

    fn merge_field(
        &mut self,
        path: &[String],
        old: &NestedField,
        new: &NestedField,
    ) -> NestedField {
        let field_type = self.merge_type(path, &old.field_type, &new.field_type);
        let required = old.required && new.required;
        if old.required && !required {
            self.changes.push(SchemaChange::ColumnMadeOptional {
                column: dotted(path),
            });
        }
        NestedField {
            id: old.id,
            name: old.name.clone(),
            required,
            field_type: Box::new(field_type),
            doc: old.doc.clone(),
            initial_default: old.initial_default.clone(),
            write_default: old.write_default.clone(),
        }
    }

    fn merge_type(&mut self, path: &[String], old: &Type, new: &Type) -> Type {
        match (old, new) {
            (Type::Primitive(old_primitive), Type::Primitive(new_primitive)) => {
                if old_primitive == new_primitive || promotes(new_primitive, old_primitive) {
                    old.clone()
                } else if promotes(old_primitive, new_primitive) {
                    self.changes.push(SchemaChange::ColumnWidened {
                        column: dotted(path),
                        from: old.to_string(),
                        to: new.to_string(),
                    });
                    new.clone()
                } else {
                    self.type_conflict(path, old, new)
                }
            }
            (Type::Struct(old_struct), Type::Struct(new_struct)) => Type::Struct(StructType::new(
                self.merge_fields(path, old_struct.fields(), new_struct.fields()),
            )),
            (Type::List(old_list), Type::List(new_list)) => {
                let element_path = child(path, LIST_ELEMENT_NAMES[0]);
                let element = self.merge_field(
                    &element_path,
                    &old_list.element_field,
                    &new_list.element_field,
                );
                Type::List(ListType::new(Arc::new(element)))
            }
            (Type::Map(old_map), Type::Map(new_map)) => {
                let key_path = child(path, MAP_KEY_NAME);
                let value_path = child(path, MAP_VALUE_NAME);
                let key = self.merge_field(&key_path, &old_map.key_field, &new_map.key_field);
                let value =
                    self.merge_field(&value_path, &old_map.value_field, &new_map.value_field);
                Type::Map(MapType::new(Arc::new(key), Arc::new(value)))
            }
            _ => self.type_conflict(path, old, new),
        }
    }

    fn type_conflict(&mut self, path: &[String], old: &Type, new: &Type) -> Type {
        self.conflicts.push(Conflict {
            column: dotted(path),
            change: IncompatibleChange::TypeChanged {
                from: old.to_string(),
                to: new.to_string(),
            },
        });
        // Nested ids of the new type are assigned like those of a new column.
        self.fresh_type(path, new)
    }

    /// A field that `base` does not have: ids from the table's history or new ones. At the
    /// top of a new subtree the field is optional (older files lack it); inside the subtree
    /// the files' requiredness holds.
    fn fresh_field(
        &mut self,
        path: &[String],
        new: &NestedField,
        keep_required: bool,
    ) -> NestedField {
        let id = self.id_for(path);
        let field_type = self.fresh_type(path, &new.field_type);
        NestedField {
            id,
            name: new.name.clone(),
            required: keep_required && new.required,
            field_type: Box::new(field_type),
            doc: new.doc.clone(),
            initial_default: None,
            write_default: None,
        }
    }

    fn fresh_type(&mut self, path: &[String], new: &Type) -> Type {
        match new {
            Type::Primitive(_) => new.clone(),
            Type::Struct(fields) => Type::Struct(StructType::new(
                fields
                    .fields()
                    .iter()
                    .map(|field| Arc::new(self.fresh_field(&child(path, &field.name), field, true)))
                    .collect(),
            )),
            Type::List(list) => {
                let element_path = child(path, LIST_ELEMENT_NAMES[0]);
                let id = self.id_for(&element_path);
                let element_type = self.fresh_type(&element_path, &list.element_field.field_type);
                Type::List(ListType::new(Arc::new(NestedField::list_element(
                    id,
                    element_type,
                    list.element_field.required,
                ))))
            }
            Type::Map(map) => {
                let key_path = child(path, MAP_KEY_NAME);
                let key_id = self.id_for(&key_path);
                let key_type = self.fresh_type(&key_path, &map.key_field.field_type);
                let value_path = child(path, MAP_VALUE_NAME);
                let value_id = self.id_for(&value_path);
                let value_type = self.fresh_type(&value_path, &map.value_field.field_type);
                Type::Map(MapType::new(
                    Arc::new(NestedField::map_key_element(key_id, key_type)),
                    Arc::new(NestedField::map_value_element(
                        value_id,
                        value_type,
                        map.value_field.required,
                    )),
                ))
            }
        }
    }
}

/// Whether values of type `from` can be read as `to` (Iceberg's type promotions).
pub(crate) fn promotes(from: &PrimitiveType, to: &PrimitiveType) -> bool {
    match (from, to) {
        (PrimitiveType::Int, PrimitiveType::Long) => true,
        (PrimitiveType::Float, PrimitiveType::Double) => true,
        (
            PrimitiveType::Decimal {
                precision: from_precision,
                scale: from_scale,
            },
            PrimitiveType::Decimal {
                precision: to_precision,
                scale: to_scale,
            },
        ) => from_scale == to_scale && from_precision < to_precision,
        _ => false,
    }
}

/// The name mapping of a table: every column path of every schema to its id.
pub(crate) fn name_mapping(metadata: &TableMetadata, extra: Option<&Schema>) -> NameMapping {
    let mut schemas: Vec<&Schema> = metadata.schemas_iter().map(|s| s.as_ref()).collect();
    schemas.sort_by_key(|schema| std::cmp::Reverse(schema.schema_id()));
    name_mapping_of(
        extra
            .into_iter()
            .chain([metadata.current_schema().as_ref()])
            .chain(schemas),
    )
}

/// The name mapping of `schemas` alone, the first naming a path winning (the catalog's
/// answer to a reader of some branches is made from their schemas only).
pub(crate) fn name_mapping_of<'s>(schemas: impl IntoIterator<Item = &'s Schema>) -> NameMapping {
    let mut root = MappingNode::default();
    for schema in schemas {
        root.add_fields(schema.as_struct().fields());
    }
    NameMapping::new(root.into_fields())
}

#[derive(Default)]
struct MappingNode {
    /// Children in first-seen order: (names, id, grandchildren).
    children: Vec<(Vec<String>, i32, MappingNode)>,
}

impl MappingNode {
    fn child(&mut self, names: &[&str], id: i32) -> &mut MappingNode {
        let position = match self
            .children
            .iter()
            .position(|(existing, _, _)| existing.first().map(String::as_str) == Some(names[0]))
        {
            Some(position) => position,
            None => {
                self.children.push((
                    names.iter().map(|name| (*name).to_owned()).collect(),
                    id,
                    MappingNode::default(),
                ));
                self.children.len() - 1
            }
        };
        &mut self.children[position].2
    }

    fn add_fields(&mut self, fields: &[NestedFieldRef]) {
        for field in fields {
            self.child(&[&field.name], field.id)
                .add_type(&field.field_type);
        }
    }

    fn add_type(&mut self, field_type: &Type) {
        match field_type {
            Type::Primitive(_) => {}
            Type::Struct(fields) => self.add_fields(fields.fields()),
            Type::List(list) => self
                .child(&LIST_ELEMENT_NAMES, list.element_field.id)
                .add_type(&list.element_field.field_type),
            Type::Map(map) => {
                self.child(&[MAP_KEY_NAME], map.key_field.id)
                    .add_type(&map.key_field.field_type);
                self.child(&[MAP_VALUE_NAME], map.value_field.id)
                    .add_type(&map.value_field.field_type);
            }
        }
    }

    fn into_fields(self) -> Vec<MappedField> {
        self.children
            .into_iter()
            .map(|(names, id, node)| MappedField::new(Some(id), names, node.into_fields()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(id: i32, name: &str, primitive: PrimitiveType, required: bool) -> NestedFieldRef {
        Arc::new(NestedField::new(
            id,
            name,
            Type::Primitive(primitive),
            required,
        ))
    }

    #[test]
    fn promotions_are_the_iceberg_ones() {
        assert!(promotes(&PrimitiveType::Int, &PrimitiveType::Long));
        assert!(promotes(&PrimitiveType::Float, &PrimitiveType::Double));
        assert!(promotes(
            &PrimitiveType::Decimal {
                precision: 9,
                scale: 2
            },
            &PrimitiveType::Decimal {
                precision: 12,
                scale: 2
            }
        ));
        assert!(!promotes(
            &PrimitiveType::Decimal {
                precision: 9,
                scale: 2
            },
            &PrimitiveType::Decimal {
                precision: 12,
                scale: 3
            }
        ));
        assert!(!promotes(&PrimitiveType::Long, &PrimitiveType::Int));
        assert!(!promotes(&PrimitiveType::Int, &PrimitiveType::String));
    }

    #[test]
    fn merge_keeps_ids_adds_optional_and_widens() {
        let base = vec![
            field(1, "id", PrimitiveType::Int, true),
            field(2, "name", PrimitiveType::String, false),
        ];
        let incoming = vec![
            field(0, "id", PrimitiveType::Long, true),
            field(0, "name", PrimitiveType::String, false),
            field(0, "score", PrimitiveType::Double, true),
        ];
        let merged = merge(&base, &incoming, &FieldIds::default(), 2, false);
        assert!(merged.conflicts.is_empty());
        let summary: Vec<_> = merged
            .fields
            .iter()
            .map(|f| (f.id, f.name.as_str(), f.field_type.to_string(), f.required))
            .collect();
        assert_eq!(
            summary,
            vec![
                (1, "id", "long".to_owned(), true),
                (2, "name", "string".to_owned(), false),
                (3, "score", "double".to_owned(), false),
            ]
        );
        assert_eq!(merged.last_column_id, 3);
    }

    #[test]
    fn merge_reports_conflicts_and_resolves_them_for_the_files() {
        let base = vec![
            field(1, "id", PrimitiveType::Long, true),
            field(2, "name", PrimitiveType::String, true),
        ];
        let incoming = vec![field(0, "id", PrimitiveType::String, true)];
        let merged = merge(&base, &incoming, &FieldIds::default(), 2, false);
        let columns: Vec<_> = merged.conflicts.iter().map(|c| c.column.as_str()).collect();
        assert_eq!(columns, vec!["id", "name"]);
        assert_eq!(merged.fields.len(), 1);
        assert_eq!(merged.fields[0].id, 1);
        assert_eq!(merged.fields[0].field_type.to_string(), "string");
    }

    #[test]
    fn narrower_file_keeps_the_wider_table_type() {
        let base = vec![field(1, "n", PrimitiveType::Long, false)];
        let incoming = vec![field(0, "n", PrimitiveType::Int, false)];
        let merged = merge(&base, &incoming, &FieldIds::default(), 1, false);
        assert!(merged.conflicts.is_empty() && merged.changes.is_empty());
        assert_eq!(merged.fields[0].field_type.to_string(), "long");
    }

    #[test]
    fn a_column_path_keeps_its_id_across_schemas() {
        let mut ids = FieldIds::default();
        ids.by_path.insert(vec!["extra".to_owned()], 7);
        let base = vec![field(1, "id", PrimitiveType::Long, true)];
        let incoming = vec![
            field(0, "id", PrimitiveType::Long, true),
            field(0, "extra", PrimitiveType::String, false),
        ];
        let merged = merge(&base, &incoming, &ids, 7, false);
        assert_eq!(merged.fields[1].id, 7);
        assert_eq!(merged.last_column_id, 7);
    }
}

//! The commit: a compare-and-swap on the SQL catalog's `metadata_location`.
//!
//! iceberg-rust commits through `Transaction`, which only moves `main`, and its
//! `TableCommit` cannot be built outside the crate. The engine writes the new metadata
//! file itself and swaps the pointer in the same `iceberg_tables` row that `SqlCatalog`
//! (and pyiceberg's `SqlCatalog`) read: the row changes only if it still points at the
//! metadata the commit was computed from.

use ::iceberg::TableIdent;
use sqlx::AnyPool;

/// Placeholder style of the catalog database (what `SqlBindStyle` says for the catalog).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BindStyle {
    /// `?` — SQLite, MySQL.
    QuestionMark,
    /// `$1, $2, …` — PostgreSQL.
    DollarNumeric,
}

impl BindStyle {
    pub(crate) fn for_uri(uri: &str) -> Self {
        if uri.starts_with("postgres") {
            Self::DollarNumeric
        } else {
            Self::QuestionMark
        }
    }

    fn render(self, sql: &str) -> String {
        match self {
            Self::QuestionMark => sql.to_owned(),
            Self::DollarNumeric => {
                let mut out = String::with_capacity(sql.len() + 8);
                let mut index = 0;
                for character in sql.chars() {
                    if character == '?' {
                        index += 1;
                        out.push('$');
                        out.push_str(&index.to_string());
                    } else {
                        out.push(character);
                    }
                }
                out
            }
        }
    }
}

/// Points the catalog row of `table` at `new_location` if it still points at
/// `expected_location`. `Ok(false)`: another commit came first.
pub(crate) async fn swap_metadata_location(
    pool: &AnyPool,
    style: BindStyle,
    catalog_name: &str,
    table: &TableIdent,
    expected_location: &str,
    new_location: &str,
) -> Result<bool, sqlx::Error> {
    let sql = style.render(
        "UPDATE iceberg_tables
            SET metadata_location = ?, previous_metadata_location = ?
          WHERE catalog_name = ?
            AND table_namespace = ?
            AND table_name = ?
            AND metadata_location = ?
            AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)",
    );
    let result = sqlx::query(&sql)
        .bind(new_location.to_owned())
        .bind(expected_location.to_owned())
        .bind(catalog_name.to_owned())
        .bind(table.namespace().join("."))
        .bind(table.name().to_owned())
        .bind(expected_location.to_owned())
        .execute(pool)
        .await?;
    Ok(result.rows_affected() == 1)
}

#[cfg(test)]
mod tests {
    use super::BindStyle;

    #[test]
    fn placeholders_follow_the_database() {
        assert_eq!(
            BindStyle::QuestionMark.render("a = ? AND b = ?"),
            "a = ? AND b = ?"
        );
        assert_eq!(
            BindStyle::DollarNumeric.render("a = ? AND b = ?"),
            "a = $1 AND b = $2"
        );
        assert_eq!(
            BindStyle::for_uri("postgresql://x"),
            BindStyle::DollarNumeric
        );
        assert_eq!(
            BindStyle::for_uri("sqlite:///x.db"),
            BindStyle::QuestionMark
        );
    }
}

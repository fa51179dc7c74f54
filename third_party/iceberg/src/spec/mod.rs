// Licensed to the Apache Software Foundation (ASF) under one
// or more contributor license agreements.  See the NOTICE file
// distributed with this work for additional information
// regarding copyright ownership.  The ASF licenses this file
// to you under the Apache License, Version 2.0 (the
// "License"); you may not use this file except in compliance
// with the License.  You may obtain a copy of the License at
//
//   http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing,
// software distributed under the License is distributed on an
// "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
// KIND, either express or implied.  See the License for the
// specific language governing permissions and limitations
// under the License.

//! Spec for Iceberg.

mod datatypes;
mod encrypted_key;
mod manifest;
mod manifest_list;
mod name_mapping;
mod partition;
mod schema;
mod snapshot;
mod snapshot_summary;
mod sort;
mod statistic_file;
mod table_metadata;
mod table_metadata_builder;
mod table_properties;
mod transform;
mod values;
mod view_metadata;
mod view_metadata_builder;
mod view_version;

pub use datatypes::*;
pub use encrypted_key::*;
pub use manifest::*;
pub use manifest_list::*;
pub use name_mapping::*;
pub use partition::*;
pub use schema::*;
pub use snapshot::*;
pub use snapshot_summary::*;
pub use sort::*;
pub use statistic_file::*;
pub use table_metadata::*;
pub(crate) use table_metadata_builder::FIRST_FIELD_ID;
pub(crate) use table_properties::parse_metadata_file_compression;
pub use table_properties::*;
pub use transform::*;
pub(crate) use values::decimal_utils;
pub use values::*;
pub use view_metadata::*;
pub use view_version::*;

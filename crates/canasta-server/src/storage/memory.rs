//! Tables in memory: for tests and load runs that measure everything but
//! the disk. Nothing survives the process.

use super::{Change, Quarantined, Storage, StorageError, StorageFuture, StoredTable, out_of_order};
use std::collections::HashMap;
use std::sync::Mutex;

#[derive(Default)]
pub struct MemoryStorage {
    tables: Mutex<HashMap<String, StoredTable>>,
}

impl MemoryStorage {
    pub fn new() -> MemoryStorage {
        MemoryStorage::default()
    }

    fn with<T>(&self, f: impl FnOnce(&mut HashMap<String, StoredTable>) -> T) -> T {
        let mut tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut tables)
    }
}

/// The table a change other than its creation is to.
fn stored<'a>(
    tables: &'a mut HashMap<String, StoredTable>,
    id: &str,
) -> Result<&'a mut StoredTable, StorageError> {
    tables
        .get_mut(id)
        .ok_or_else(|| StorageError::NoSuchTable(id.to_string()))
}

impl Storage for MemoryStorage {
    fn write(&self, change: Change) -> StorageFuture<'_, ()> {
        let result = self.with(|tables| match change {
            Change::Create(table) => {
                tables.insert(table.meta.id.clone(), table);
                Ok(())
            }
            Change::Meta(meta) => stored(tables, &meta.id).map(|table| table.meta = meta),
            Change::Append {
                id,
                first,
                lines,
                meta,
            } => {
                let table = stored(tables, &id)?;
                if table.lines.len() != first {
                    return Err(out_of_order(&id, first, table.lines.len()));
                }
                table.lines.extend(lines);
                if let Some(meta) = meta {
                    table.meta = meta;
                }
                Ok(())
            }
            Change::Drop { id, keep, len } => {
                let table = stored(tables, &id)?;
                if table.lines.len() != len || keep >= len {
                    return Err(out_of_order(&id, len, table.lines.len()));
                }
                table.lines.truncate(keep);
                Ok(())
            }
        });
        Box::pin(async { result })
    }

    fn load_unfinished(&self) -> StorageFuture<'_, Vec<Result<StoredTable, Quarantined>>> {
        let mut tables: Vec<StoredTable> = self.with(|t| {
            t.values()
                .filter(|t| t.meta.status.is_open())
                .cloned()
                .collect()
        });
        tables.sort_by(|a, b| (a.meta.created, &a.meta.id).cmp(&(b.meta.created, &b.meta.id)));
        Box::pin(async { Ok(tables.into_iter().map(Ok).collect()) })
    }

    fn load(&self, id: &str) -> StorageFuture<'_, Option<StoredTable>> {
        let table = self.with(|t| t.get(id).cloned());
        Box::pin(async { Ok(table) })
    }

    fn ids(&self) -> StorageFuture<'_, Vec<Result<String, Quarantined>>> {
        let mut ids: Vec<(u64, String)> = self.with(|t| {
            t.values()
                .map(|t| (t.meta.created, t.meta.id.clone()))
                .collect()
        });
        ids.sort();
        Box::pin(async { Ok(ids.into_iter().map(|(_, id)| Ok(id)).collect()) })
    }
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn memory_keeps_the_storage_contract() {
        super::super::contract::run(&super::MemoryStorage::new()).await;
    }
}

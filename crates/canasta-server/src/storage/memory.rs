//! Tables in memory: for tests and load runs that measure everything but
//! the disk. Nothing survives the process.

use super::{Quarantined, Storage, StorageError, StorageFuture, StoredTable, TableMeta};
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

impl Storage for MemoryStorage {
    fn create(&self, table: &StoredTable) -> StorageFuture<'_, ()> {
        self.with(|t| t.insert(table.meta.id.clone(), table.clone()));
        Box::pin(async { Ok(()) })
    }

    fn update_meta(&self, meta: &TableMeta) -> StorageFuture<'_, ()> {
        let result = self.with(|t| match t.get_mut(&meta.id) {
            Some(table) => {
                table.meta = meta.clone();
                Ok(())
            }
            None => Err(StorageError::NoSuchTable(meta.id.clone())),
        });
        Box::pin(async { result })
    }

    fn append(
        &self,
        id: &str,
        first: usize,
        lines: &[String],
        meta: Option<&TableMeta>,
    ) -> StorageFuture<'_, ()> {
        let result = self.with(|t| {
            let table = t
                .get_mut(id)
                .ok_or_else(|| StorageError::NoSuchTable(id.to_string()))?;
            if table.lines.len() != first {
                return Err(StorageError::OutOfOrder {
                    id: id.to_string(),
                    given: first,
                    expected: table.lines.len(),
                });
            }
            table.lines.extend_from_slice(lines);
            if let Some(meta) = meta {
                table.meta = meta.clone();
            }
            Ok(())
        });
        Box::pin(async { result })
    }

    fn drop_lines(&self, id: &str, keep: usize, len: usize) -> StorageFuture<'_, ()> {
        let result = self.with(|t| {
            let table = t
                .get_mut(id)
                .ok_or_else(|| StorageError::NoSuchTable(id.to_string()))?;
            if table.lines.len() != len || keep >= len {
                return Err(StorageError::OutOfOrder {
                    id: id.to_string(),
                    given: len,
                    expected: table.lines.len(),
                });
            }
            table.lines.truncate(keep);
            Ok(())
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

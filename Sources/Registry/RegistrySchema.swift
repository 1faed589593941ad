import GRDB

/// The registry's versioned schema (spelled out for readers in SCHEMA.md). Each migration
/// ends by setting `PRAGMA user_version` to its number, so the sqlite3 tool, older and newer
/// ScreenLabs all read the version from one place; a migration is never edited once shipped —
/// a change is a new migration.
enum RegistrySchema {
    static let currentVersion = 2

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: version1)
            try db.execute(sql: "PRAGMA user_version = 1")
        }
        // Data-parallel runs (mpirun -np N): the process count and the hosts, comma-separated. NULL: one process.
        // Immediate foreign-key checks: adding columns cannot break a key, and the deferred default would
        // check the whole file and refuse to upgrade a registry whose rows a user edited into orphans
        // with sqlite3 (foreign keys are off there), which reads fine otherwise.
        migrator.registerMigration("v2", foreignKeyChecks: .immediate) { db in
            try db.execute(sql: "ALTER TABLE runs ADD COLUMN ranks INTEGER; ALTER TABLE runs ADD COLUMN hosts TEXT")
            try db.execute(sql: "PRAGMA user_version = 2")
        }
        return migrator
    }

    static let version1 = """
    CREATE TABLE runs (
        id TEXT PRIMARY KEY NOT NULL,
        experiment TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'finished', 'failed', 'interrupted')),
        stop_reason TEXT,
        run_folder TEXT,
        config_yaml TEXT,
        git_commit TEXT,
        dataset TEXT,
        train_split TEXT,
        val_split TEXT,
        test_split TEXT,
        started_at TEXT,
        finished_at TEXT,
        updated_at TEXT NOT NULL,
        host TEXT,
        pid INTEGER,
        epochs_planned INTEGER,
        epochs_done INTEGER NOT NULL DEFAULT 0,
        best_epoch INTEGER,
        best_val_map50 REAL,
        val_map50 REAL,
        val_map_center REAL,
        val_weighted_map50 REAL,
        test_map50 REAL,
        test_map_center REAL,
        test_weighted_map50 REAL,
        images_per_second REAL,
        seconds REAL
    );
    CREATE INDEX runs_by_experiment ON runs (experiment, started_at);

    CREATE TABLE epochs (
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        epoch INTEGER NOT NULL,
        lr REAL,
        val_map50 REAL,
        val_map_center REAL,
        images_per_second REAL,
        seconds REAL,
        PRIMARY KEY (run_id, epoch)
    );

    CREATE TABLE epoch_losses (
        run_id TEXT NOT NULL,
        epoch INTEGER NOT NULL,
        term TEXT NOT NULL,
        value REAL,
        PRIMARY KEY (run_id, epoch, term),
        FOREIGN KEY (run_id, epoch) REFERENCES epochs (run_id, epoch) ON DELETE CASCADE
    );

    CREATE TABLE class_results (
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        split TEXT NOT NULL,
        class_index INTEGER NOT NULL,
        class_name TEXT NOT NULL,
        ground_truth INTEGER NOT NULL,
        ap50 REAL,
        ap_center REAL,
        threshold REAL,
        precision REAL,
        recall REAL,
        f1 REAL,
        PRIMARY KEY (run_id, split, class_name)
    );

    CREATE TABLE thresholds (
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        class_index INTEGER NOT NULL,
        class_name TEXT NOT NULL,
        confidence REAL,
        precision REAL,
        recall REAL,
        f1 REAL,
        strategy TEXT NOT NULL,
        picked_on TEXT,
        picked_at TEXT NOT NULL,
        PRIMARY KEY (run_id, class_name)
    );

    CREATE TABLE artifacts (
        run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        path TEXT NOT NULL,
        PRIMARY KEY (run_id, kind, name)
    );
    """
}

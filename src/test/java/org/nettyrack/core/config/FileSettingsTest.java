package org.nettyrack.core.config;

import static org.nettyrack.core.config.Bounds.accepts;
import static org.nettyrack.core.config.Bounds.refuses;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nettyrack.core.files.CacheRules;
import org.nettyrack.core.files.FileOptions;

class FileSettingsTest {
    @Test
    void theDefaultsPass() {
        accepts(FileSettings.DEFAULTS::check);
    }

    @Test
    void theCacheKeepsFromNothingToAnHour() {
        accepts(new FileSettings(FileOptions.NONE, 0, 1, true)::check);
        accepts(new FileSettings(FileOptions.NONE, 3_600_000, 1_000_000, false)::check);
        refuses("file cache time must be 0 to 3600 s, got -0.001 s", new FileSettings(FileOptions.NONE, -1, 1_024, true)::check);
        refuses("file cache time must be 0 to 3600 s, got 3600.001 s",
            new FileSettings(FileOptions.NONE, 3_600_001, 1_024, true)::check);
        refuses("file cache entries must be 1 to 1000000, got 0", new FileSettings(FileOptions.NONE, 1_000, 0, true)::check);
        refuses("file cache entries must be 1 to 1000000, got 1000001",
            new FileSettings(FileOptions.NONE, 1_000, 1_000_001, true)::check);
    }

    @Test
    void thePublicDirectoryMustBeOne(@TempDir Path root) throws Exception {
        accepts(new FileSettings(new FileOptions(root, false, CacheRules.NONE, false), 1_000, 1_024, true)::check);
        Path file = Files.writeString(root.resolve("a.txt"), "a");
        refuses("public directory " + file + " is not a directory",
            new FileSettings(new FileOptions(file, false, CacheRules.NONE, false), 1_000, 1_024, true)::check);
        refuses("file options must not be null", new FileSettings(null, 1_000, 1_024, true)::check);
    }
}

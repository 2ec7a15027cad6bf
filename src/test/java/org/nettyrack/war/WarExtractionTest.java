package org.nettyrack.war;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WarExtractionTest {
    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(nullValues = "none", value = {
        "WEB-INF/config.ru,                       WEB-INF/config.ru",
        "WEB-INF/gems/gems/rack-2.2/lib/rack.rb,  WEB-INF/gems/gems/rack-2.2/lib/rack.rb",
        "index.html,                              WEB-INF/public/index.html",
        "assets/app.css,                          WEB-INF/public/assets/app.css",
        "META-INF/MANIFEST.MF,                    none",
        "org/nettyrack/war/WarMain.class,         none",
        "org/other/Thing.class,                   WEB-INF/public/org/other/Thing.class",
    })
    void mapsEntriesToTheAppDirectory(String entry, String target) {
        assertEquals(target, WarExtraction.target(entry));
    }

    @Test
    void unpacksTheAppAndItsPublicFilesThenDeletesThem() throws IOException {
        Path war = war(Map.of("WEB-INF/config.ru", "run App", "index.html", "<p>hi</p>",
                "META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n"));
        WarExtraction extraction = WarExtraction.unpack(war, tmp);
        Path app = extraction.appDirectory();
        assertEquals("run App", Files.readString(app.resolve("config.ru")));
        assertEquals("<p>hi</p>", Files.readString(app.resolve("public/index.html")));
        assertFalse(Files.exists(extraction.root().resolve("META-INF")));
        extraction.delete();
        assertFalse(Files.exists(extraction.root()));
    }

    @Test
    void refusesEntriesThatEscapeAndLeavesNothingBehind() throws IOException {
        Path war = war(Map.of("WEB-INF/../../evil.txt", "x"));
        IOException e = assertThrows(IOException.class, () -> WarExtraction.unpack(war, tmp));
        assertTrue(e.getMessage().contains("outside"), e.getMessage());
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(1, left.count()); // only the WAR itself
        }
        assertNull(WarExtraction.target("META-INF/x"));
    }

    @Test
    void aJvmStartedInTheSameProcessTakesOverWhatTheFirstUnpacked() throws IOException {
        Path war = war(Map.of("WEB-INF/config.ru", "run App"));
        WarExtraction first = WarExtraction.unpack(war, tmp);
        WarExtraction adopted = WarExtraction.adopt(first.root(), war);
        assertEquals(first.root(), adopted.root());
        assertEquals("run App", Files.readString(adopted.appDirectory().resolve("config.ru")));
        first.delete();
    }

    @Test
    void takesOverNothingButAnUnpackingOfThisVeryWar() throws IOException {
        Path war = war(Map.of("WEB-INF/config.ru", "run App"));
        WarExtraction first = WarExtraction.unpack(war, tmp);
        assertNull(WarExtraction.adopt(tmp.resolve("missing"), war));
        assertNull(WarExtraction.adopt(tmp, war), "a directory without the marker");
        Files.writeString(war, "a new build of the WAR, longer than the old one");
        assertNull(WarExtraction.adopt(first.root(), war), "the WAR changed since it was unpacked");
        first.delete();
    }

    private Path war(Map<String, String> entries) throws IOException {
        Path war = tmp.resolve("app.war");
        try (OutputStream file = Files.newOutputStream(war); ZipOutputStream zip = new ZipOutputStream(file)) {
            for (Map.Entry<String, String> entry : entries.entrySet()) {
                zip.putNextEntry(new ZipEntry(entry.getKey()));
                zip.write(entry.getValue().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
        return war;
    }
}

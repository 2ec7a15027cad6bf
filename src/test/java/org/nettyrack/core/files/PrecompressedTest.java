package org.nettyrack.core.files;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PrecompressedTest {
    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} with {1}: {2}")
    @CsvSource(delimiter = '|', value = {
        "br,gz | gzip, deflate, br | br | true",
        "br,gz | gzip | gzip | true",
        "br,gz | br;q=0, gzip | gzip | true",
        "br,gz | gzip;q=0, br;q=0 | | true",
        "br,gz | * | br | true",
        "br,gz | *, br;q=0 | gzip | true",
        "br,gz | identity | | true",
        "br,gz | | | true",
        "gz | br, gzip | gzip | true",
        "none | br, gzip | | false",
    })
    void choose(String siblings, String acceptEncoding, String encoding, boolean varies) throws IOException {
        Path file = Files.writeString(dir.resolve("app.js"), "x");
        for (String sibling : siblings.split(",")) {
            if (!sibling.equals("none")) {
                Files.writeString(dir.resolve("app.js." + sibling), "z");
            }
        }
        Precompressed chosen = Precompressed.choose(PublicFile.read(file), acceptEncoding);
        assertEquals(encoding, chosen.encoding());
        assertEquals(varies, chosen.varies());
        assertEquals(encoding == null ? file : dir.resolve("app.js." + (encoding.equals("br") ? "br" : "gz")),
            chosen.facts().file());
    }
}

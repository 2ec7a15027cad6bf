package org.nettyrack.core.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MimeTypesTest {
    @Test
    void theMaintainedTableIsOnTheClassPath() {
        assertTrue(MimeTypes.tableLoaded(), MimeTypes.TABLE);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "index.html | text/html; charset=utf-8",
        "app.JS | text/javascript; charset=utf-8",
        "mod.mjs | text/javascript; charset=utf-8",
        "style.css | text/css; charset=utf-8",
        "data.json | application/json; charset=utf-8",
        "logo.svg | image/svg+xml; charset=utf-8",
        "photo.png | image/png",
        "font.woff2 | font/woff2",
        "favicon.ico | image/vnd.microsoft.icon",
        "app.wasm | application/wasm",
        "doc.pdf | application/pdf",
        "archive.unknownext | application/octet-stream",
        "README | application/octet-stream",
        "trailing. | application/octet-stream",
    })
    void byExtension(String name, String type) {
        assertEquals(type, MimeTypes.of(name));
    }
}

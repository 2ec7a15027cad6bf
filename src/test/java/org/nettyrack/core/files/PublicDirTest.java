package org.nettyrack.core.files;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PublicDirTest {
    @TempDir
    Path tmp;
    Path root;

    @BeforeEach
    void files() throws IOException {
        root = Files.createDirectories(tmp.resolve("public"));
        Files.writeString(root.resolve("a.txt"), "a");
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(root.resolve("sub/b c.txt"), "b");
        Files.writeString(root.resolve("sub/é.txt"), "e");
        Files.writeString(root.resolve(".env"), "secret");
        Files.createDirectories(root.resolve(".well-known"));
        Files.writeString(root.resolve(".well-known/x"), "x");
        Files.writeString(tmp.resolve("outside.txt"), "outside");
        Files.createSymbolicLink(root.resolve("out.txt"), tmp.resolve("outside.txt"));
        Files.createSymbolicLink(root.resolve("in.txt"), root.resolve("a.txt"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "/a.txt, FILE, a.txt",
        "/a.txt?x=1#f, FILE, a.txt",
        "//a.txt, FILE, a.txt",
        "/sub/b%20c.txt, FILE, sub/b c.txt",
        "/sub/%C3%A9.txt, FILE, sub/é.txt",
        "/in.txt, FILE, a.txt",
        "/out.txt, NOT_FOUND, ",
        "/missing.txt, PASS, ",
        "/sub, PASS, ",
        "/sub/, PASS, ",
        "/, PASS, ",
        "/.env, PASS, ",
        "/.well-known/x, PASS, ",
        "/sub%2fb%20c.txt, PASS, ",
        "/sub%5cb%20c.txt, PASS, ",
        "/sub\\b c.txt, PASS, ",
        "/../outside.txt, BAD_REQUEST, ",
        "/sub/../a.txt, BAD_REQUEST, ",
        "/%2e%2e/outside.txt, BAD_REQUEST, ",
        "/%2E%2E%2foutside.txt, BAD_REQUEST, ",
        "/..%5coutside.txt, BAD_REQUEST, ",
        "/./a.txt, BAD_REQUEST, ",
        "/a.txt%00.png, BAD_REQUEST, ",
        "/a%zz, BAD_REQUEST, ",
        "/a%, BAD_REQUEST, ",
        "/%ff.txt, BAD_REQUEST, ",
        "http://host/a.txt, PASS, ",
        "*, PASS, ",
    })
    void lookup(String target, PublicDir.Found found, String file) throws IOException {
        PublicDir.Lookup lookup = new PublicDir(root, false).lookup(target);
        assertEquals(found, lookup.found());
        assertEquals(file == null ? null : root.toRealPath().resolve(file), lookup.file());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"/.env, FILE", "/.well-known/x, FILE", "/%2e%2e/outside.txt, BAD_REQUEST"})
    void dotfilesWhenAllowed(String target, PublicDir.Found found) throws IOException {
        assertEquals(found, new PublicDir(root, true).lookup(target).found());
    }
}

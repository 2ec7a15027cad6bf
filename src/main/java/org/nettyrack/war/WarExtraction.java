package org.nettyrack.war;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Enumeration;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Unpacks an executable WAR into a temporary directory for {@link WarMain} and removes it
 * again. The WAR's {@code WEB-INF/} becomes the app directory (config.ru, the app, gems,
 * jars); what sits at the WAR root (the app's {@code public/}, which a servlet container
 * serves from there) goes back to {@code WEB-INF/public/}, where the app itself looks for
 * it when no container is in front. {@code META-INF/} and this package's own classes stay
 * behind. Entry names that would land outside the directory are refused.
 *
 * <p>When bin/nettyrack starts the JVM once more with its settings (same pid, {@code exec}),
 * the new JVM takes over the directory the first one unpacked ({@link #adopt}) rather than
 * unpacking the WAR a second time: a marker file names the WAR, its size and time.
 */
final class WarExtraction {
    static final String WEB_INF = "WEB-INF/";
    private static final String LAUNCHER_CLASSES = WarExtraction.class.getPackageName().replace('.', '/') + "/";

    static final String MARKER = ".nettyrack-war";

    private final Path root;

    private WarExtraction(Path root) {
        this.root = root;
    }

    /** Unpacks {@code war} under a new directory inside {@code parent}. */
    static WarExtraction unpack(Path war, Path parent) throws IOException {
        WarExtraction extraction = new WarExtraction(Files.createTempDirectory(parent, "nettyrack-war-"));
        try (ZipFile zip = new ZipFile(war.toFile())) {
            Files.writeString(extraction.root.resolve(MARKER), identity(war));
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                String target = target(entry.getName());
                if (target != null) {
                    extraction.write(zip, entry, target);
                }
            }
        } catch (IOException | RuntimeException e) {
            extraction.delete();
            throw e;
        }
        return extraction;
    }

    /**
     * The directory {@code root} as this WAR's extraction, when a JVM before this one (the same
     * process, before an exec) unpacked exactly this WAR there; null otherwise.
     */
    static WarExtraction adopt(Path root, Path war) {
        try {
            Path marker = root.resolve(MARKER);
            if (Files.isRegularFile(marker) && Files.readString(marker).equals(identity(war))) {
                return new WarExtraction(root);
            }
        } catch (IOException | RuntimeException e) {
            // not ours to take over: unpack afresh
        }
        return null;
    }

    private static String identity(Path war) throws IOException {
        Path absolute = war.toAbsolutePath();
        return absolute + "\n" + Files.size(absolute) + "\n" + Files.getLastModifiedTime(absolute).toMillis() + "\n";
    }

    /**
     * Where an entry goes, relative to the extraction root, or null to leave it out:
     * {@code WEB-INF/x} stays {@code WEB-INF/x}, a root entry {@code x} becomes
     * {@code WEB-INF/public/x}.
     */
    static String target(String name) {
        if (name.startsWith(WEB_INF)) {
            return name;
        }
        if (name.startsWith("META-INF/") || name.startsWith(LAUNCHER_CLASSES)) {
            return null;
        }
        return WEB_INF + "public/" + name;
    }

    /** The app directory: the WAR's WEB-INF. */
    Path appDirectory() {
        return root.resolve(WEB_INF);
    }

    Path root() {
        return root;
    }

    /** Removes everything unpacked; quietly leaves what cannot be removed. */
    void delete() {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException | UncheckedIOException e) {
            System.err.println("nettyrack: could not remove " + root + ": " + e.getMessage());
        }
    }

    private void write(ZipFile zip, ZipEntry entry, String target) throws IOException {
        Path path = root.resolve(target).normalize();
        if (!path.startsWith(root)) {
            throw new IOException("WAR entry " + entry.getName() + " points outside the directory it unpacks to");
        }
        if (entry.isDirectory()) {
            Files.createDirectories(path);
            return;
        }
        Files.createDirectories(path.getParent());
        try (InputStream in = zip.getInputStream(entry)) {
            Files.copy(in, path);
        }
    }
}

package org.nettyrack.servlet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * An exploded web app in a temp dir, laid out as a WAR from {@code nettyrack war} would be:
 * WEB-INF/web.xml naming the door's classes, WEB-INF/config.ru, nettyrack's classes (and the
 * Ruby files the jar carries) in WEB-INF/classes, the test's JRuby jar in WEB-INF/lib, static
 * files at the root, the Redis engine's jars (Jedis...) in WEB-INF/lib. The container loads nettyrack and JRuby from there, as from a real WAR,
 * not from the test's class path. JRuby's stdlib comes from the toolchain's JRuby home
 * ({@code jruby.home}); gems (Rack) from the toolchain's GEM_PATH ({@code gem.path}).
 */
final class WebApp {
    private static final Path CLASSES = Path.of("target/classes");
    private static final Path DEPENDENCIES = Path.of("lib/nettyrack/jars");

    final Path root;
    private final Map<String, String> params = new LinkedHashMap<>();
    private String mapping = "filter";

    WebApp(Path root) {
        this.root = root;
        param("jruby.home", jrubyHome().toString());
        param("gem.path", System.getenv().getOrDefault("GEM_PATH", ""));
    }

    static Path jrubyHome() {
        String version = System.getenv().getOrDefault("NETTYRACK_JRUBY_VERSION", "10.1.1.0");
        return Path.of(".toolchain", "jruby-" + version).toAbsolutePath();
    }

    WebApp param(String name, String value) {
        params.put(name, value);
        return this;
    }

    /** Maps {@link RackServlet} to {@code pattern} instead of {@link RackFilter} to /*. */
    WebApp servlet(String pattern) {
        mapping = pattern;
        return this;
    }

    WebApp file(String path, String content) {
        try {
            Path file = root.resolve(path);
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    WebApp rackup(String configRu) {
        return file("WEB-INF/config.ru", configRu);
    }

    /** Writes web.xml and copies nettyrack's classes and JRuby in; returns the web app's root. */
    Path build() throws IOException {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<web-app xmlns=\"https://jakarta.ee/xml/ns/jakartaee\" version=\"6.0\">\n");
        params.forEach((name, value) -> xml.append("  <context-param><param-name>").append(name)
            .append("</param-name><param-value>").append(escape(value)).append("</param-value></context-param>\n"));
        xml.append("  <listener><listener-class>org.nettyrack.servlet.RackListener</listener-class></listener>\n");
        if (mapping.equals("filter")) {
            xml.append("  <filter><filter-name>rack</filter-name><filter-class>org.nettyrack.servlet.RackFilter</filter-class>"
                + "<async-supported>true</async-supported></filter>\n"
                + "  <filter-mapping><filter-name>rack</filter-name><url-pattern>/*</url-pattern></filter-mapping>\n");
        } else {
            xml.append("  <servlet><servlet-name>rack</servlet-name><servlet-class>org.nettyrack.servlet.RackServlet</servlet-class>"
                + "<async-supported>true</async-supported></servlet>\n"
                + "  <servlet-mapping><servlet-name>rack</servlet-name><url-pattern>").append(mapping)
                .append("</url-pattern></servlet-mapping>\n");
        }
        xml.append("</web-app>\n");
        file("WEB-INF/web.xml", xml.toString());
        for (String dir : new String[] {"org/nettyrack/core", "org/nettyrack/jruby", "org/nettyrack/servlet",
            "org/nettyrack/redis", "META-INF"}) {
            copyTree(CLASSES.resolve(dir), root.resolve("WEB-INF/classes").resolve(dir));
        }
        Path lib = Files.createDirectories(root.resolve("WEB-INF/lib"));
        Files.copy(jrubyHome().resolve("lib/jruby.jar"), lib.resolve("jruby.jar"), StandardCopyOption.REPLACE_EXISTING);
        try (Stream<Path> jars = Files.isDirectory(DEPENDENCIES) ? Files.list(DEPENDENCIES) : Stream.empty()) {
            // the Redis engine's: Jedis and what it needs (script/bootstrap puts them there)
            for (Path jar : (Iterable<Path>) jars::iterator) {
                String name = jar.getFileName().toString();
                if (name.endsWith(".jar") && !name.startsWith("netty")) {
                    Files.copy(jar, lib.resolve(name), StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        return root;
    }

    /** Copies a directory tree, replacing what is there. */
    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static String escape(String value) {
        return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}

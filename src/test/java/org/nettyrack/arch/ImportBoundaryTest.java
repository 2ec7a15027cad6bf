package org.nettyrack.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shape of the code, read from the sources: a core that uses only the JDK; Netty, JRuby,
 * Redis, OpenTelemetry and the servlet API each confined to their own package, none using another; and
 * packages that depend one way, as Netty's codec packages do. Every package has a rule below
 * and every rule a package; a use counts whether it is an {@code import} or a fully-qualified
 * name in the code (comments and strings do not count).
 */
class ImportBoundaryTest {
    private static final Path SOURCES = Path.of("src/main/java");
    private static final String ROOT = "org.nettyrack";

    /**
     * What each package may use besides itself: {@code jdk} is the JDK's API ({@code java},
     * {@code javax}, {@code jdk}, {@code com.sun.management}); {@code x.*} is x and every package
     * under it, a bare name that package alone (nettyrack's relative to {@code org.nettyrack}). Read top to bottom, each package uses only packages
     * above it or third-party code.
     */
    private static final Map<String, String> RULES = rules(
        "core", "jdk",
        "core.files", "jdk core",
        "core.config", "jdk core core.files",
        "core.push", "jdk core",
        "core.host", "jdk core core.config core.push",
        "core.metrics", "jdk",
        "core.ops", "jdk core core.push core.metrics",
        "core.reload", "jdk core",
        "core.warmup", "jdk core",
        // inside netty/: the pipeline leaf, then the rooms, each using only rooms above it
        "netty.pipeline", "jdk io.netty.* core.*",
        "netty.response", "jdk io.netty.* core.* netty.pipeline",
        "netty.http1", "jdk io.netty.* core.* netty.pipeline netty.response",
        "netty.listen", "jdk io.netty.* core.*",
        "netty.tls", "jdk io.netty.* core.* netty.pipeline netty.http1",
        "netty.control", "jdk io.netty.* core.* netty.listen netty.response",
        "netty.hijack", "jdk io.netty.* core.* netty.pipeline",
        "netty.push", "jdk io.netty.* core.* netty.pipeline",
        "netty.files", "jdk io.netty.* core.* netty.pipeline netty.response",
        "netty.exchange", "jdk io.netty.* core.* netty.pipeline netty.response netty.http1 netty.listen netty.files "
            + "netty.push netty.hijack",
        "netty.http2", "jdk io.netty.* core.* netty.pipeline netty.response netty.http1 netty.exchange",
        "netty", "jdk io.netty.* core.* netty.*",
        "jruby", "jdk org.jruby.* org.jcodings.* core.*",
        "servlet", "jdk jakarta.servlet.* jakarta.websocket.* core.*",
        "redis", "jdk redis.clients.* core.*",
        "otel", "jdk io.opentelemetry.* core core.ops",
        "war", "jdk");

    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+?)(?:\\.\\*)?\\s*;", Pattern.MULTILINE);
    /** A fully-qualified type name in code: lower-case package segments, then the type. */
    private static final Pattern QUALIFIED = Pattern.compile(
        "(?<![\\w.])((?:java|javax|jakarta|io|org|redis|com|sun|jdk)(?:\\.[a-z_][a-z0-9_]*)+)\\.[A-Z]");

    @Test
    void everyPackageHasARuleAndEveryRuleAPackage() throws IOException {
        assertEquals(new TreeSet<>(RULES.keySet()), new TreeSet<>(sources().keySet()), difference());
    }

    @Test
    void packagesUseOnlyWhatTheirRuleAllows() throws IOException {
        List<String> offenders = new ArrayList<>();
        for (Map.Entry<String, List<Path>> pkg : sources().entrySet()) {
            List<String> allowed = List.of(RULES.getOrDefault(pkg.getKey(), "").trim().split("\\s+"));
            for (Path file : pkg.getValue()) {
                for (String used : packagesUsed(file)) {
                    String own = ROOT + "." + pkg.getKey();
                    if (!used.equals(own) && allowed.stream().noneMatch(rule -> allows(rule, used))) {
                        offenders.add(file.getFileName() + " (" + pkg.getKey() + "): " + used);
                    }
                }
            }
        }
        assertEquals(List.of(), offenders);
    }

    @Test
    void noTwoPackagesDependOnEachOther() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (Map.Entry<String, List<Path>> pkg : sources().entrySet()) {
            Set<String> ours = new TreeSet<>();
            for (Path file : pkg.getValue()) {
                packagesUsed(file).stream().filter(p -> p.startsWith(ROOT + "."))
                    .map(p -> p.substring(ROOT.length() + 1)).filter(p -> !p.equals(pkg.getKey())).forEach(ours::add);
            }
            uses.put(pkg.getKey(), ours);
        }
        List<String> cycles = new ArrayList<>();
        for (String start : uses.keySet()) {
            List<String> path = cycleFrom(start, start, uses, new ArrayList<>(List.of(start)), new TreeSet<>());
            if (path != null && path.stream().allMatch(p -> start.compareTo(p) <= 0)) { // each cycle once
                cycles.add(String.join(" -> ", path));
            }
        }
        assertEquals(List.of(), cycles);
    }

    /** The test reads what it should: a qualified name in code counts, one in a comment or a string does not. */
    @Test
    void readsQualifiedNamesInCodeOnly() {
        String code = "package a;\nimport java.util.List;\nimport io.netty.channel.*;\nimport static org.jruby.Ruby.*;\n/** {@link org.nettyrack.netty.NettyServer} */\n"
            + "class A { Object x = new org.nettyrack.core.config.ServerConfig.Builder(); String s = \"io.netty.X\";\n"
            + "  String u = \"http://x\"; char q = '\"'; String t = \"\"\"\n org.jruby.Ruby \"\"\"; } // org.jruby.Ruby";
        assertEquals(Set.of("java.util", "io.netty.channel", "org.jruby", "org.nettyrack.core.config"), packagesUsedIn(code));
    }

    private static final List<String> JDK = List.of("java.*", "javax.*", "jdk.*", "com.sun.management");
    private static final List<String> THIRD_PARTY = List.of("io.netty", "io.opentelemetry", "org.jruby", "org.jcodings", "jakarta.",
        "redis.");

    private static boolean allows(String rule, String used) {
        if (rule.equals("jdk")) {
            return JDK.stream().anyMatch(pattern -> matches(pattern, used));
        }
        return matches(THIRD_PARTY.stream().anyMatch(rule::startsWith) ? rule : ROOT + "." + rule, used);
    }

    /** {@code x.*}: x or a package under it; otherwise that package alone. */
    private static boolean matches(String pattern, String used) {
        if (pattern.endsWith(".*")) {
            String base = pattern.substring(0, pattern.length() - 2);
            return used.equals(base) || used.startsWith(base + ".");
        }
        return used.equals(pattern);
    }

    private static List<String> cycleFrom(String start, String at, Map<String, Set<String>> uses, List<String> path,
                                          Set<String> seen) {
        for (String next : uses.getOrDefault(at, Set.of())) {
            if (next.equals(start)) {
                List<String> cycle = new ArrayList<>(path);
                cycle.add(start);
                return cycle;
            }
            if (seen.add(next)) {
                path.add(next);
                List<String> found = cycleFrom(start, next, uses, path, seen);
                if (found != null) {
                    return found;
                }
                path.remove(path.size() - 1);
            }
        }
        return null;
    }

    /** Each package under org/nettyrack (dotted, relative to it) and its own source files. */
    private static Map<String, List<Path>> sources() throws IOException {
        Path root = SOURCES.resolve(ROOT.replace('.', '/'));
        assertTrue(Files.isDirectory(root), root + " must exist (run from the project's directory)");
        Map<String, List<Path>> packages = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> packages
                .computeIfAbsent(root.relativize(f.getParent()).toString().replace('/', '.'), k -> new ArrayList<>()).add(f));
        }
        return packages;
    }

    private static Set<String> packagesUsed(Path file) throws IOException {
        return packagesUsedIn(Files.readString(file));
    }

    private static Set<String> packagesUsedIn(String source) {
        String code = codeOnly(source);
        Set<String> used = new TreeSet<>();
        Matcher imports = IMPORT.matcher(code);
        while (imports.find()) {
            used.add(packageOf(imports.group(1)));
        }
        Matcher qualified = QUALIFIED.matcher(code.replaceAll("(?m)^(package|import)\\s[^;]*;", ""));
        while (qualified.find()) {
            used.add(qualified.group(1));
        }
        return used;
    }

    /** The source with its comments, string, text-block and char literals blanked out, in one pass. */
    private static String codeOnly(String source) {
        StringBuilder code = new StringBuilder(source.length());
        int i = 0;
        while (i < source.length()) {
            char c = source.charAt(i);
            if (source.startsWith("//", i)) {
                i = end(source.indexOf('\n', i), source);
            } else if (source.startsWith("/*", i)) {
                i = end(source.indexOf("*/", i + 2), source) + 2;
            } else if (source.startsWith("\"\"\"", i)) {
                i = end(source.indexOf("\"\"\"", i + 3), source) + 3;
            } else if (c == '"' || c == '\'') {
                i++;
                while (i < source.length() && source.charAt(i) != c) {
                    i += source.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
            } else {
                code.append(c);
                i++;
                continue;
            }
            code.append(' ');
        }
        return code.toString();
    }

    private static int end(int found, String source) {
        return found < 0 ? source.length() : found;
    }

    /** The package of a name: its segments before the first one that starts with a capital. */
    private static String packageOf(String name) {
        List<String> segments = new ArrayList<>();
        for (String segment : name.split("\\.")) {
            if (Character.isUpperCase(segment.charAt(0))) {
                break;
            }
            segments.add(segment);
        }
        return String.join(".", segments);
    }

    private static String difference() throws IOException {
        Set<String> found = sources().keySet();
        Set<String> unruled = new TreeSet<>(found);
        unruled.removeAll(RULES.keySet());
        Set<String> unfound = new TreeSet<>(RULES.keySet());
        unfound.removeAll(found);
        return "without a rule " + unruled + ", without a package " + unfound;
    }

    private static Map<String, String> rules(String... pairs) {
        Map<String, String> rules = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            rules.put(pairs[i], pairs[i + 1]);
        }
        return rules;
    }
}

package org.nettyrack.core.files;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Content types by file extension, from Jetty's maintained table ({@code
 * org/eclipse/jetty/http/mime.properties} in the {@code org.eclipse.jetty:jetty-http} jar from
 * Maven Central, read as a resource: no Jetty class is used), falling back to the JDK's own
 * table ({@link java.net.URLConnection#getFileNameMap}) for what it lacks. Text types get
 * {@code ; charset=utf-8}, as Rack::Files and nginx's {@code charset utf-8} do. Unknown
 * extensions are {@code application/octet-stream}.
 */
public final class MimeTypes {
    static final String TABLE = "org/eclipse/jetty/http/mime.properties";
    private static final String DEFAULT = "application/octet-stream";
    private static final Map<String, String> BY_EXTENSION = load();

    private MimeTypes() {
    }

    /** The Content-Type for a file name. */
    public static String of(String fileName) {
        int dot = fileName.lastIndexOf('.');
        if (dot < 0 || dot == fileName.length() - 1) {
            return DEFAULT;
        }
        String type = BY_EXTENSION.get(fileName.substring(dot + 1).toLowerCase(Locale.ROOT));
        if (type == null) {
            type = java.net.URLConnection.getFileNameMap().getContentTypeFor(fileName.toLowerCase(Locale.ROOT));
        }
        if (type == null) {
            return DEFAULT;
        }
        boolean text = type.startsWith("text/") || type.equals("application/javascript")
            || type.equals("application/json") || type.equals("image/svg+xml") || type.endsWith("+xml")
            || type.equals("application/xml");
        return text && !type.contains("charset") ? type + "; charset=utf-8" : type;
    }

    /** Whether the maintained table was found (the JDK's alone lacks woff2, ico, mjs...). */
    static boolean tableLoaded() {
        return !BY_EXTENSION.isEmpty();
    }

    private static Map<String, String> load() {
        Properties table = new Properties();
        try (InputStream in = MimeTypes.class.getClassLoader().getResourceAsStream(TABLE)) {
            if (in != null) {
                table.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        java.util.HashMap<String, String> map = new java.util.HashMap<>();
        table.forEach((k, v) -> map.put(k.toString().toLowerCase(Locale.ROOT), v.toString().trim()));
        return Map.copyOf(map);
    }
}

package org.nettyrack.core.files;

import java.util.Locale;

/**
 * A precompressed sibling of a public file ({@code app.js.br}, {@code app.js.gz}, as
 * {@code rails assets:precompile} and build tools write them), chosen by the request's
 * Accept-Encoding: brotli before gzip, an encoding with {@code q=0} never; the file itself
 * when no acceptable sibling exists. {@link #varies} says whether any sibling exists, in
 * which case every answer for the file carries {@code Vary: Accept-Encoding}.
 */
public record Precompressed(FileFacts facts, String encoding, boolean varies) {

    public static Precompressed choose(PublicFile file, String acceptEncoding) {
        boolean varies = file.brotli() != null || file.gzip() != null;
        if (acceptEncoding != null) {
            if (file.brotli() != null && accepts(acceptEncoding, "br")) {
                return new Precompressed(file.brotli(), "br", true);
            }
            if (file.gzip() != null && accepts(acceptEncoding, "gzip")) {
                return new Precompressed(file.gzip(), "gzip", true);
            }
        }
        return new Precompressed(file.plain(), null, varies);
    }

    /** Whether an Accept-Encoding value accepts {@code coding} with a non-zero q ("*" counts). */
    static boolean accepts(String acceptEncoding, String coding) {
        Boolean star = null;
        for (String part : acceptEncoding.toLowerCase(Locale.ROOT).split(",")) {
            String[] fields = part.trim().split(";");
            String name = fields[0].trim();
            boolean positive = true;
            for (int i = 1; i < fields.length; i++) {
                String param = fields[i].trim();
                if (param.startsWith("q=")) {
                    try {
                        positive = Double.parseDouble(param.substring(2).trim()) > 0;
                    } catch (NumberFormatException e) {
                        positive = false;
                    }
                }
            }
            if (name.equals(coding)) {
                return positive;
            }
            if (name.equals("*")) {
                star = positive;
            }
        }
        return star != null && star;
    }
}

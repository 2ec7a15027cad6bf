package org.nettyrack.core.files;

import java.util.List;

/**
 * The Cache-Control header of public files by URL path prefix, the longest matching prefix
 * winning (e.g. {@code /assets/} → {@code public, max-age=31536000, immutable} for
 * fingerprinted assets); none for paths no rule covers.
 */
public record CacheRules(List<Rule> rules) {
    public static final CacheRules NONE = new CacheRules(List.of());

    /** {@code prefix} starts with "/"; {@code value} is sent as it is. */
    public record Rule(String prefix, String value) {
        public Rule {
            if (prefix == null || !prefix.startsWith("/")) {
                throw new IllegalArgumentException("cache-control prefix must start with /, got " + prefix);
            }
            if (value == null || value.isBlank() || value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("cache-control value for " + prefix + " must be one non-empty line");
            }
        }
    }

    public CacheRules {
        rules = List.copyOf(rules);
    }

    /** The Cache-Control for a request path, or null. */
    public String forPath(String path) {
        Rule best = null;
        for (Rule rule : rules) {
            if (path.startsWith(rule.prefix) && (best == null || rule.prefix.length() > best.prefix.length())) {
                best = rule;
            }
        }
        return best == null ? null : best.value;
    }
}

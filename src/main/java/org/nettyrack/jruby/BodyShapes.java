package org.nettyrack.jruby;

import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.runtime.builtin.IRubyObject;

/**
 * What a response body can do ({@code to_path}, {@code to_ary}, {@code each}, {@code call},
 * {@code close}), decided once per Ruby class instead of five {@code respond_to?} checks on
 * every request, as the push callbacks are decided once per connection.
 *
 * <p>The answer is exactly {@code respond_to?}'s: for a class whose {@code respond_to?} and
 * {@code respond_to_missing?} are Ruby's own, whether each method is defined ({@code
 * RubyClass#respondsToMethod}, what JRuby's {@code respondsTo} does then); for a class that
 * answers {@code respond_to?} itself ({@code Rack::BodyProxy} delegates to the body it wraps),
 * {@link #DYNAMIC}: each object is asked, per check. A decision is kept with the class's
 * method generation, which JRuby changes whenever a method of the class, of an ancestor or of
 * an included module is defined or removed, or a module is included ({@code
 * RubyModule#getGeneration}, what its call-site caches use); a changed class is decided again.
 * Singleton classes ({@code define_singleton_method}, {@code extend}) belong to one object:
 * decided for it, never kept.
 *
 * <p>The cache is a small copy-on-write array read without locks: apps answer with a handful of
 * body classes. One per runtime, shared by its worker threads.
 */
final class BodyShapes {
    static final int TO_PATH = 1;
    static final int TO_ARY = 1 << 1;
    static final int EACH = 1 << 2;
    static final int CALL = 1 << 3;
    static final int CLOSE = 1 << 4;
    /** The class answers {@code respond_to?} itself: ask each object. */
    static final int DYNAMIC = -1;
    private static final String[] METHODS = {"to_path", "to_ary", "each", "call", "close"};
    private static final int MAX_CLASSES = 32;

    private record Entry(RubyClass type, int generation, int shape) {
    }

    private final Ruby runtime;
    private volatile Entry[] entries = new Entry[0];

    BodyShapes(Ruby runtime) {
        this.runtime = runtime;
    }

    /** The body's shape: a set of the bits above, or {@link #DYNAMIC}. */
    int of(IRubyObject body) {
        RubyClass type = body.getMetaClass();
        int generation = type.getGeneration(); // read before deciding: a change meanwhile misses next time
        for (Entry entry : entries) {
            if (entry.type == type && entry.generation == generation) {
                return entry.shape;
            }
        }
        int shape = decide(type);
        if (!type.isSingleton()) {
            remember(new Entry(type, generation, shape));
        }
        return shape;
    }

    /** Whether a body of that shape responds to the method of {@code bit} (named {@code name}). */
    static boolean can(IRubyObject body, int shape, int bit, String name) {
        return shape == DYNAMIC ? body.respondsTo(name) : (shape & bit) != 0;
    }

    private int decide(RubyClass type) {
        if (!type.searchMethod("respond_to?").equals(runtime.getRespondToMethod())
            || !type.searchMethod("respond_to_missing?").equals(runtime.getRespondToMissingMethod())) {
            return DYNAMIC;
        }
        int shape = 0;
        for (int i = 0; i < METHODS.length; i++) {
            if (type.respondsToMethod(METHODS[i], false)) {
                shape |= 1 << i;
            }
        }
        return shape;
    }

    /** Keeps the entry, replacing the class's stale one, or the oldest when full. */
    private synchronized void remember(Entry entry) {
        Entry[] old = entries;
        int stale = -1;
        for (int i = 0; i < old.length; i++) {
            if (old[i].type == entry.type) {
                stale = i;
            }
        }
        Entry[] next;
        if (stale >= 0) {
            next = old.clone();
            next[stale] = entry;
        } else if (old.length < MAX_CLASSES) {
            next = java.util.Arrays.copyOf(old, old.length + 1);
            next[old.length] = entry;
        } else {
            next = new Entry[MAX_CLASSES];
            System.arraycopy(old, 1, next, 0, MAX_CLASSES - 1);
            next[MAX_CLASSES - 1] = entry;
        }
        entries = next;
    }
}

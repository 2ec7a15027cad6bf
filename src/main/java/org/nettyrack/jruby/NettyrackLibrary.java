package org.nettyrack.jruby;

import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyModule;
import org.jruby.runtime.load.Library;

/**
 * Registers every Ruby-visible Java class of nettyrack, once per runtime; lib/nettyrack.rb
 * calls it after loading the jars: {@code Nettyrack::ResponseStream} (streamed bodies) and
 * {@code Nettyrack::Client} (push connections), {@code Nettyrack::EarlyHints} ({@code rack.early_hints}).
 */
public final class NettyrackLibrary implements Library {
    @Override
    public void load(Ruby runtime, boolean wrap) {
        RubyModule nettyrack = runtime.defineModule("Nettyrack");
        if (nettyrack.getConstantAt("EarlyHints") != null) {
            return;
        }
        RubyClass stream = nettyrack.defineClassUnder("ResponseStream", runtime.getObject(), ResponseStream::new);
        stream.defineAnnotatedMethods(ResponseStream.class);
        RubyClass client = nettyrack.defineClassUnder("Client", runtime.getObject(), RubyClient::new);
        client.defineAnnotatedMethods(RubyClient.class);
        RubyClass hints = nettyrack.defineClassUnder("EarlyHints", runtime.getObject(), EarlyHints::new);
        hints.defineAnnotatedMethods(EarlyHints.class);
    }

    static RubyClass earlyHintsClass(Ruby runtime) {
        return defined(runtime, "EarlyHints");
    }

    static ResponseStream.Factory streams(Ruby runtime) {
        return new ResponseStream.Factory(defined(runtime, "ResponseStream"));
    }

    static RubyClass clientClass(Ruby runtime) {
        return defined(runtime, "Client");
    }

    private static RubyClass defined(Ruby runtime, String name) {
        RubyModule nettyrack = runtime.getModule("Nettyrack");
        if (nettyrack == null || nettyrack.getConstantAt(name) == null) {
            new NettyrackLibrary().load(runtime, false);
            nettyrack = runtime.getModule("Nettyrack");
        }
        return (RubyClass) nettyrack.getConstantAt(name);
    }
}

package org.nettyrack.jruby;

import org.jruby.Ruby;
import org.jruby.RubyClass;
import org.jruby.RubyModule;
import org.jruby.runtime.load.Library;

/**
 * Registers every Ruby-visible Java class of nettyrack, once per runtime; lib/nettyrack.rb
 * calls it after loading the jars. Today that is {@code Nettyrack::ResponseStream}.
 */
public final class NettyrackLibrary implements Library {
    @Override
    public void load(Ruby runtime, boolean wrap) {
        RubyModule nettyrack = runtime.defineModule("Nettyrack");
        if (nettyrack.getConstantAt("ResponseStream") != null) {
            return;
        }
        RubyClass stream = nettyrack.defineClassUnder("ResponseStream", runtime.getObject(), ResponseStream::new);
        stream.defineAnnotatedMethods(ResponseStream.class);
    }

    static ResponseStream.Factory streams(Ruby runtime) {
        RubyModule nettyrack = runtime.getModule("Nettyrack");
        if (nettyrack == null || nettyrack.getConstantAt("ResponseStream") == null) {
            new NettyrackLibrary().load(runtime, false);
            nettyrack = runtime.getModule("Nettyrack");
        }
        return new ResponseStream.Factory((RubyClass) nettyrack.getConstantAt("ResponseStream"));
    }
}

# frozen_string_literal: true

require_relative "bridge_helper"

# What a body can do is decided once per class (org.nettyrack.jruby.BodyShapes): the answers
# must stay those of respond_to?, whatever happens to the class, and per object where the
# class answers respond_to? itself. A body that responds to to_ary goes out whole with
# Content-Length; one that only responds to each is streamed, chunked.
RSpec.describe "response bodies decided once per class" do
  def framing(port)
    reply = raw_request(port, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    expect(reply).to start_with("HTTP/1.1 200")
    head, body = reply.split("\r\n\r\n", 2)
    if head.include?("transfer-encoding: chunked")
      [:chunked, body]
    elsif (length = head[/^content-length: (\d+)\r?$/, 1])
      [:whole, length.to_i, body]
    else
      [:unframed, body]
    end
  end

  def serving(bodies, &block)
    app = ->(_env) { [200, { "content-type" => "text/plain" }, bodies.shift] }
    with_app(app, &block)
  end

  it "decides again when a method is defined on the body's class or removed from it" do
    streamed = Class.new { def each; yield "ab"; end }
    serving([streamed.new, streamed.new, streamed.new]) do |port|
      expect(framing(port)).to eq([:chunked, "2\r\nab\r\n0\r\n\r\n"])
      streamed.class_eval { def to_ary; ["ab"]; end }
      expect(framing(port)).to eq([:whole, 2, "ab"])
      streamed.send(:remove_method, :to_ary)
      expect(framing(port).first).to eq(:chunked)
    end
  end

  it "decides again when an ancestor changes, or a module included in the class does" do
    base = Class.new
    mixin = Module.new
    streamed = Class.new(base) { def each; yield "ab"; end }
    streamed.include(mixin)
    serving([streamed.new, streamed.new, streamed.new, streamed.new]) do |port|
      expect(framing(port).first).to eq(:chunked)
      base.class_eval { def to_ary; ["ab"]; end }
      expect(framing(port)).to eq([:whole, 2, "ab"])
      base.send(:remove_method, :to_ary)
      expect(framing(port).first).to eq(:chunked)
      mixin.module_eval { def to_ary; ["ab"]; end }
      expect(framing(port)).to eq([:whole, 2, "ab"])
    end
  end

  it "asks each object when the class answers respond_to? itself, as Rack::BodyProxy does" do
    streaming = Object.new
    streaming.define_singleton_method(:each) { |&blk| blk.call("ab") }
    bodies = [Rack::BodyProxy.new(%w[a b]) {}, Rack::BodyProxy.new(streaming) {}, Rack::BodyProxy.new(%w[c d]) {}]
    serving(bodies) do |port|
      expect(framing(port)).to eq([:whole, 2, "ab"])
      expect(framing(port).first).to eq(:chunked)
      expect(framing(port)).to eq([:whole, 2, "cd"])
    end
  end

  it "gives an object its own answer once it has singleton methods" do
    streamed = Class.new { def each; yield "ab"; end }
    special = streamed.new
    special.define_singleton_method(:to_ary) { ["ab"] }
    serving([streamed.new, special, streamed.new]) do |port|
      expect(framing(port).first).to eq(:chunked)
      expect(framing(port)).to eq([:whole, 2, "ab"])
      expect(framing(port).first).to eq(:chunked)
    end
  end

  it "closes a body only when it responds to close, decided the same way" do
    closed = Queue.new
    closing = Class.new do
      define_method(:each) { |&blk| blk.call("ab") }
    end
    serving([closing.new, closing.new]) do |port|
      expect(framing(port).first).to eq(:chunked)
      closing.class_eval { define_method(:close) { closed << :closed } }
      expect(framing(port).first).to eq(:chunked)
      expect(BridgeHelper.take(closed, 5)).to eq(:closed)
    end
  end
end

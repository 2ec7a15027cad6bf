# frozen_string_literal: true

require_relative "bridge_helper"
require_relative "../support/ws_client"

# Push enters Ruby in one place (org.nettyrack.jruby.PushBridge): the handler's callbacks and
# the blocks given to client.subscribe, on worker threads, a failure reported to rack.errors.
RSpec.describe "the push bridge" do
  let(:pubsub) { Java::OrgNettyrackCorePush::LocalPubSub.new }

  def upgrade_app(handler)
    lambda do |env|
      env["rack.upgrade"] = handler
      [200, {}, []]
    end
  end

  def subscribing_handler(&block)
    Object.new.tap do |handler|
      handler.define_singleton_method(:on_open) do |client|
        client.subscribe("news") { |channel, message| block.call(client, channel, message) }
        client.write("subscribed")
      end
    end
  end

  def publish(text)
    pubsub.publish("news", text.to_java_bytes)
  end

  it "runs a subscription's block on a worker with the channel and the message" do
    handler = subscribing_handler do |client, channel, message|
      client.write("#{channel}:#{message}:#{message.encoding}:#{java.lang.Thread.current_thread.name}")
    end
    with_app(upgrade_app(handler), pubsub: pubsub) do |port|
      ws = WsClient.open(port, "/")
      expect(ws.read_message).to eq([:text, "subscribed"])
      publish("h\u00e9")
      kind, text = ws.read_message
      expect(kind).to eq(:text)
      expect(text).to match(/\Anews:h\u00e9:UTF-8:nettyrack-worker-\d+\z/)
    ensure
      ws&.close
    end
  end

  it "reports a block that raises to rack.errors, and the connection goes on" do
    handler = subscribing_handler do |client, _channel, message|
      raise "broken block" if message == "boom"

      client.write("got #{message}")
    end
    with_app(upgrade_app(handler), pubsub: pubsub) do |port, errors|
      ws = WsClient.open(port, "/")
      expect(ws.read_message).to eq([:text, "subscribed"])
      publish("boom")
      publish("after")
      expect(ws.read_message).to eq([:text, "got after"])
      expect(errors.string).to include("Error in the subscribe block of news: RuntimeError: broken block")
    ensure
      ws&.close
    end
  end
end

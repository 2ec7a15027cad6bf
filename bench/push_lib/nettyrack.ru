# frozen_string_literal: true

# bench/push's app for nettyrack (the rack.upgrade contract): every WebSocket subscribes to one
# channel and echoes what it receives; POST /publish broadcasts the request body on that channel.
# bench/push_lib/faye.ru is the same app for faye-websocket on Puma. An SSE stream (GET with
# Accept: text/event-stream, bench/push-redis) subscribes to the same channel: one event a message.
CHANNEL = "bench"

module EchoSubscriber
  def self.on_open(client) = client.subscribe(CHANNEL)
  def self.on_message(client, data) = client.write(data)
end

run lambda { |env|
  if env["rack.upgrade?"] # :websocket or :sse
    env["rack.upgrade"] = EchoSubscriber
    [200, {}, []]
  elsif env["PATH_INFO"] == "/publish"
    Nettyrack.publish(CHANNEL, env["rack.input"].read)
    [200, { "content-type" => "text/plain" }, ["published\n"]]
  else
    [200, { "content-type" => "text/plain" }, ["push bench\n"]]
  end
}

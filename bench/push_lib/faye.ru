# frozen_string_literal: true

# bench/push's app for faye-websocket over rack.hijack on Puma: the push most Ruby apps use today
# (Debian's ruby-faye-websocket and puma on CRuby). Same behaviour as bench/push_lib/nettyrack.ru:
# every WebSocket joins one set and echoes; POST /publish sends the body to the whole set.
# Faye runs the sockets on an EventMachine reactor thread (started here, so that it can use epoll
# and hold more than 1,024 sockets, and be stopped before exit: EventMachine 1.3~pre crashes when
# the process exits under a running reactor).
require "set"
require "faye/websocket"

EM.epoll
REACTOR = Thread.new { EM.run }
Thread.pass until EM.reactor_running?
at_exit do
  EM.schedule { EM.stop }
  REACTOR.join(5)
end
SUBSCRIBERS = Set.new # touched on the reactor thread only

run lambda { |env|
  if Faye::WebSocket.websocket?(env)
    ws = Faye::WebSocket.new(env)
    ws.on(:open) { SUBSCRIBERS << ws }
    ws.on(:message) { |event| ws.send(event.data) }
    ws.on(:close) { SUBSCRIBERS.delete(ws) }
    ws.rack_response
  elsif env["PATH_INFO"] == "/publish"
    message = env["rack.input"].read
    EM.schedule { SUBSCRIBERS.each { |ws| ws.send(message) } }
    [200, { "content-type" => "text/plain" }, ["published\n"]]
  else
    [200, { "content-type" => "text/plain" }, ["push bench\n"]]
  end
}

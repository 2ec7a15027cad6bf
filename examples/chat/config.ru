# frozen_string_literal: true

# A WebSocket chat over pub/sub: `bin/nettyrack examples/chat/config.ru`, then open
# http://localhost:9292/?nick=ann in two browser windows.
#
# Each WebSocket subscribes to the "chat" channel when it opens and publishes every line it
# receives there, so a line reaches every subscriber, whichever connection it came from. With
# `--pubsub redis://127.0.0.1:6379` the channel spans every process sharing that Redis.
# POST /say publishes from plain HTTP with Nettyrack.publish, outside any connection.
# GET /chat as Server-Sent Events (`curl -N -H 'Accept: text/event-stream' localhost:9292/chat`)
# follows the room without joining it: every line becomes an event.
module Chat
  CHANNEL = "chat"

  def self.nick(env)
    nick = Rack::Utils.parse_query(env["QUERY_STRING"])["nick"].to_s.strip[0, 24]
    nick.empty? ? "guest" : nick
  end

  # GET /chat?nick=NAME as a WebSocket: joins the chat; as an event stream: follows it.
  def self.join(env)
    case env["rack.upgrade?"]
    when :websocket then env["rack.upgrade"] = Member.new(nick(env))
    when :sse then env["rack.upgrade"] = Follower
    else return [400, { "content-type" => "text/plain" }, ["/chat is a WebSocket or an event stream\n"]]
    end
    [200, {}, []]
  end

  # POST /say?nick=NAME with a line of text as the body, e.g. `curl -d hi localhost:9292/say`.
  def self.say(env)
    unless env["REQUEST_METHOD"] == "POST"
      return [405, { "allow" => "POST", "content-type" => "text/plain" }, ["POST a line\n"]]
    end

    line = env["rack.input"].read.force_encoding(Encoding::UTF_8).scrub.strip
    Nettyrack.publish(CHANNEL, "#{nick(env)}: #{line}")
    [204, {}, []]
  end

  # One person, for as long as their WebSocket is open. The subscription has no block, so
  # the server writes every message on the channel straight to this client.
  class Member
    def initialize(nick)
      @nick = nick
    end

    def on_open(client)
      client.subscribe(CHANNEL)
      client.publish(CHANNEL, "* #{@nick} joined")
    end

    def on_message(client, line)
      client.publish(CHANNEL, "#{@nick}: #{line}") if line.encoding == Encoding::UTF_8 # text frames only
    end

    def on_shutdown(client)
      client.write("* the server is going away")
    end

    # The connection (and its subscription) is gone: tell the others from outside it.
    def on_close(_client)
      Nettyrack.publish(CHANNEL, "* #{@nick} left")
    end
  end

  # An event stream that reads along: each line on the channel is one event.
  module Follower
    def self.on_open(client)
      client.subscribe(CHANNEL)
      client.write("* following the chat")
    end

    def self.on_shutdown(client)
      client.write("* the server is going away")
    end
  end
end

use Rack::Static, root: File.join(__dir__, "public"), urls: { "/" => "/index.html", "/chat.js" => "/chat.js" }
map("/chat") { run Chat.method(:join) }
map("/say") { run Chat.method(:say) }

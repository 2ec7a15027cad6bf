# bench/restart's app: the one-file Rails app of examples/rails, whose answers say which
# process and which code served them (x-served-by: PID/VERSION, VERSION being what the file
# beside this one said when the process booted), so a hot restart's switch shows in every
# answer; and, on /ws, a WebSocket that passes on what the bench publishes through Redis.
require "rails"
require "action_controller/railtie"

VERSION_FILE = File.join(__dir__, "VERSION")
CODE_VERSION = File.exist?(VERSION_FILE) ? File.read(VERSION_FILE).strip : "none"
SERVED_BY = "#{Process.pid}/#{CODE_VERSION}".freeze

class RestartApp < Rails::Application
  config.eager_load = true
  config.cache_classes = true
  config.secret_key_base = "x" * 64
  config.hosts.clear
  config.logger = Logger.new($stderr)
  config.log_level = :warn
  routes.append do
    root to: "hello#index"
    get "/json/:n" => "api#show"
  end
end

class HelloController < ActionController::Base
  def index
    response.set_header("x-served-by", SERVED_BY)
    render plain: "hello from Rails #{Rails.version} on #{RUBY_ENGINE}, #{SERVED_BY}\n"
  end
end

class ApiController < ActionController::API
  def show
    response.set_header("x-served-by", SERVED_BY)
    render json: { n: params[:n].to_i * 2, served_by: SERVED_BY }
  end
end

RestartApp.initialize!

# The WebSocket clients of bench/restart: each subscribes to the "ticks" channel, which the
# bench's publisher feeds through Redis (--pubsub redis://...) with "SEQ:PUBLISHED_AT_MS", and
# gets each tick as {"seq":N,"at":MS,"server":"PID/VERSION"}, after a
# {"subscribed":"PID/VERSION","at":MS} once the subscription is in place (client.subscribe
# returns then): every tick published after that must reach the client.
class TickClient
  def on_open(client)
    client.subscribe("ticks") do |_channel, tick|
      seq, at = tick.split(":")
      client.write(%({"seq":#{seq},"at":#{at},"server":"#{SERVED_BY}"}))
    end
    client.write(%({"subscribed":"#{SERVED_BY}","at":#{Process.clock_gettime(Process::CLOCK_REALTIME, :millisecond)}}))
  end
end

ticks = lambda do |env|
  next [426, { "content-type" => "text/plain" }, ["WebSocket only\n"]] unless env["rack.upgrade?"] == :websocket

  env["rack.upgrade"] = TickClient.new
  [101, {}, []]
end

map("/ws") { run ticks }
run RestartApp

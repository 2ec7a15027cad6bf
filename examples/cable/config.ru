# frozen_string_literal: true

# ActionCable (Rails 6.1) over rack.hijack, unchanged: `bin/nettyrack examples/cable/config.ru`,
# then open http://localhost:9292/ in two windows. For comparison only: new code should use
# rack.upgrade (examples/chat), which needs no thread per connection.
#
# ActionCable mounts at /cable, hijacks each WebSocket's connection (a real TCPSocket, see the
# README's rack.hijack section) and reads it on its own nio4r event loop; the async adapter
# broadcasts in-process, no Redis needed. The page at / is Rails' own ActionCable JavaScript
# client talking to ChatChannel: a line one browser says reaches every subscribed browser.

# nio4r: pick its pure-Ruby selector (IO.select) before ActionCable requires it. Without this,
# nio4r requires its native extension, which Debian builds for MRI only; from RubyGems.org,
# JRuby gets a Java one (set NIO4R_PURE=false there to use it). The pure selector needs the
# fix in nio_wakeup_drain.rb, or it spins a core after its first wake-up.
ENV["NIO4R_PURE"] ||= "true"
require_relative "nio_wakeup_drain"

require "rails"
require "action_controller/railtie"
require "action_cable/engine"

class CableApp < Rails::Application
  config.root = __dir__
  config.eager_load = true # production Rails must: lazily built code races between threads
  config.cache_classes = true # and must not reload code (a file check and a lock per request)
  config.secret_key_base = "x" * 64
  config.hosts.clear
  config.logger = Logger.new($stderr)
  config.log_level = :warn
  config.action_cable.mount_path = "/cable"
  config.action_cable.cable = { "adapter" => "async" } # in-process broadcasts (no config/cable.yml)
  # Pages from this server only: ActionCable compares the Origin header with the Host header.
  config.action_cable.allow_same_origin_as_host = true
  routes.append do
    root to: "pages#index"
    # Rails' ActionCable client as Debian ships it inside the actioncable gem (a UMD build that
    # defines window.ActionCable).
    get "/action_cable.js", to: Rack::Files.new(
      File.join(Gem.loaded_specs.fetch("actioncable").full_gem_path, "app/assets/javascripts")
    )
  end
end

module ApplicationCable
  class Connection < ActionCable::Connection::Base; end
  class Channel < ActionCable::Channel::Base; end
end

# Every subscriber streams "chat"; `speak` broadcasts a line to all of them (the sender too).
class ChatChannel < ApplicationCable::Channel
  def subscribed
    stream_from "chat"
  end

  def speak(data)
    line = data["text"].to_s.strip[0, 200]
    ActionCable.server.broadcast("chat", { "text" => line, "via" => "Rails #{Rails.version} on #{RUBY_ENGINE}" })
  end
end

class PagesController < ActionController::Base
  PAGE = File.read(File.join(__dir__, "index.html")).html_safe

  def index
    render html: PAGE
  end
end

CableApp.initialize!
run CableApp

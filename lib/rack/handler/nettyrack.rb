# frozen_string_literal: true

# `rackup -s nettyrack` (and `rails server`) on Rack 2, through Rack::Handler. On Rack 3, where
# rack/handler is gone, this defers to the rackup gem's handler (lib/rackup/handler/nettyrack.rb).
begin
  require "rack/handler"
rescue LoadError
  require_relative "../../rackup/handler/nettyrack"
  return
end
require_relative "../../nettyrack/rack_handler"

module Rack
  module Handler
    # Rack::Handler::Nettyrack.run(app, Host: "0.0.0.0", Port: 9292, Threads: "4:16") { |server| }
    module Nettyrack
      extend ::Nettyrack::RackHandler
    end

    register :nettyrack, Nettyrack
  end
end

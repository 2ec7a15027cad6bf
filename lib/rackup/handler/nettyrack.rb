# frozen_string_literal: true

# `rackup -s nettyrack` (and `rails server`) on Rack 3, through the rackup gem's Rackup::Handler.
# Loads nothing when the rackup gem is not installed (Rack 2 uses lib/rack/handler/nettyrack.rb).
begin
  require "rackup/handler"
rescue LoadError
  return
end
require_relative "../../nettyrack/rack_handler"

module Rackup
  module Handler
    # Rackup::Handler::Nettyrack.run(app, Host: "0.0.0.0", Port: 9292, Threads: "4:16") { |server| }
    module Nettyrack
      extend ::Nettyrack::RackHandler
    end

    register :nettyrack, Nettyrack
  end
end

import { formatDuration, type MailTexts } from '../mail-texts.ts';

// Tuteo, as in the app's Spanish texts.
export const es: MailTexts = {
  greeting: (name) => (name ? `Hola, ${name}:` : 'Hola:'),
  linkHint: 'Si el botón no funciona, copia este enlace y pégalo en tu navegador:',
  signature: 'El equipo de Shieldline VPN',
  footer: 'Este es un mensaje automático sobre tu cuenta de Shieldline VPN.',
  templates: {
    email_verify: () => ({
      subject: 'Confirma tu dirección de correo electrónico',
      preview: 'Un clic más para terminar de configurar tu cuenta de Shieldline VPN.',
      heading: 'Confirma tu dirección de correo electrónico',
      paragraphs: [
        'Gracias por registrarte en Shieldline VPN. Confirma que esta dirección de correo es tuya para que podamos escribirte sobre tu cuenta y tu suscripción.',
      ],
      action: 'Confirmar dirección de correo',
      ignore: 'Si no has creado una cuenta en Shieldline VPN, puedes ignorar este mensaje.',
    }),
    password_reset: ({ expiresInMinutes }) => ({
      subject: 'Restablece tu contraseña de Shieldline VPN',
      preview: 'Elige una nueva contraseña para tu cuenta.',
      heading: 'Restablece tu contraseña',
      paragraphs: [
        'Hemos recibido una solicitud para restablecer la contraseña de tu cuenta de Shieldline VPN. Usa el botón de abajo para elegir una nueva.',
      ],
      action: 'Elegir una nueva contraseña',
      note: `Este enlace caduca en ${formatDuration('es', expiresInMinutes)} y solo se puede usar una vez.`,
      ignore:
        'Si no has pedido restablecer tu contraseña, puedes ignorar este mensaje. Tu contraseña seguirá siendo la misma.',
    }),
    password_set: () => ({
      subject: 'Crea una contraseña para tu cuenta de Shieldline VPN',
      preview: 'Elige una contraseña para iniciar sesión con tu correo.',
      heading: 'Crea tu contraseña',
      paragraphs: [
        'Para iniciar sesión con tu dirección de correo y una contraseña, elige una contraseña para tu cuenta de Shieldline VPN.',
      ],
      action: 'Crear contraseña',
      ignore:
        'Si no has pedido crear una contraseña, puedes ignorar este mensaje. Tu cuenta no cambiará.',
    }),
    email_change: ({ newEmail }) => ({
      subject: 'Confirma tu nueva dirección de correo',
      preview: 'Confirma el cambio para terminar de actualizar tu cuenta.',
      heading: 'Confirma tu nueva dirección de correo',
      paragraphs: [
        `Has pedido cambiar la dirección de correo de tu cuenta de Shieldline VPN a ${newEmail}.`,
        'Confirma el cambio para empezar a usar esta dirección al iniciar sesión y para recibir nuestros mensajes.',
      ],
      action: 'Confirmar nueva dirección',
      ignore:
        'Si no has pedido este cambio, puedes ignorar este mensaje. Tu cuenta conservará su dirección actual.',
    }),
    password_changed: () => ({
      subject: 'Se ha cambiado tu contraseña de Shieldline VPN',
      preview: 'Un aviso de seguridad sobre tu cuenta.',
      heading: 'Se ha cambiado tu contraseña',
      paragraphs: [
        'La contraseña de tu cuenta de Shieldline VPN se acaba de cambiar.',
        'Si no has sido tú, restablece tu contraseña ahora mismo para proteger tu cuenta y avisa a nuestro equipo de soporte.',
      ],
      action: 'Restablecer contraseña',
      ignore: 'Si has hecho tú este cambio, puedes ignorar este mensaje.',
    }),
    billing_receipt: ({ planName, amount, invoiceNumber, periodEnd }) => ({
      subject: 'Recibo de tu pago de Shieldline VPN',
      preview: 'Gracias por tu pago. Tu factura ya está disponible en tu cuenta.',
      heading: 'Hemos recibido tu pago',
      paragraphs: [
        `¡Gracias! Hemos recibido tu pago de ${amount} por tu plan ${planName}.`,
        `Tu suscripción está pagada hasta el ${periodEnd}. Puedes ver y descargar la factura cuando quieras en la página Facturas de tu cuenta.`,
      ],
      action: 'Ver facturas',
      note: `Número de factura: ${invoiceNumber}`,
      ignore:
        'Si no has hecho este pago, ponte en contacto cuanto antes con nuestro equipo de soporte.',
    }),
    billing_payment_failed: ({ planName, amount, reason, retryOn, graceEndsOn }) => {
      const lapsed = retryOn === null;
      const access =
        graceEndsOn === null ? '' : ` Tu VPN seguirá funcionando hasta el ${graceEndsOn}.`;
      return {
        subject: lapsed
          ? 'Tu suscripción de Shieldline VPN ha vencido'
          : 'No hemos podido renovar tu suscripción de Shieldline VPN',
        preview: lapsed
          ? 'Actualiza tu método de pago para recuperar el acceso a la VPN.'
          : 'Actualiza tu método de pago para no perder el acceso a la VPN.',
        heading: lapsed ? 'Tu suscripción ha vencido' : 'No se ha podido procesar tu pago',
        paragraphs: [
          `Hemos intentado cobrar ${amount} por tu plan ${planName}, pero el pago no se ha completado.`,
          `Motivo: ${reason}`,
          lapsed
            ? 'Era nuestro último intento, así que tu suscripción ha vencido y ya no tienes acceso a la VPN. Actualiza tu método de pago para renovar la suscripción y recuperar el acceso.'
            : `Volveremos a intentarlo el ${retryOn}.${access} Actualiza tu método de pago antes de esa fecha para evitar interrupciones.`,
        ],
        action: 'Actualizar método de pago',
        note: 'Tu banco o proveedor de pagos puede darte más detalles sobre el motivo del rechazo.',
        ignore: lapsed
          ? 'Si ya has renovado tu suscripción, puedes ignorar este mensaje.'
          : 'Si ya has actualizado tu método de pago, puedes ignorar este mensaje.',
      };
    },
    billing_renewal_reminder: ({ planName, amount, renewsOn }) => ({
      subject: 'Tu suscripción de Shieldline VPN se renueva en 3 días',
      preview: 'Un recordatorio sobre tu próxima renovación.',
      heading: 'Tu suscripción se renovará pronto',
      paragraphs: [
        `Tu plan ${planName} se renovará automáticamente el ${renewsOn} y te cobraremos ${amount} con tu método de pago guardado.`,
        'Si quieres cambiar de plan o de método de pago, o desactivar la renovación automática, entra en la página de tu membresía.',
      ],
      action: 'Gestionar membresía',
      note: 'Comprueba que tu método de pago esté al día para que la suscripción se renueve sin interrupciones.',
      ignore: 'Si quieres mantener tu suscripción, no tienes que hacer nada.',
    }),
    billing_canceled: ({ planName, endsOn }) => ({
      subject: 'Se ha cancelado tu suscripción de Shieldline VPN',
      preview:
        endsOn === null
          ? 'Tu acceso a la VPN ha terminado.'
          : 'Puedes seguir usando la VPN hasta el final del periodo pagado.',
      heading: 'Se ha cancelado tu suscripción',
      paragraphs:
        endsOn === null
          ? [
              `Tu plan ${planName} se ha cancelado con efecto inmediato y tu acceso a la VPN ha terminado.`,
              'Tu cuenta se mantiene, así que puedes reactivar tu suscripción cuando quieras.',
            ]
          : [
              `Tu plan ${planName} se ha cancelado y no se renovará. Puedes seguir usando Shieldline VPN hasta el ${endsOn}.`,
              '¿Has cambiado de opinión? Reactiva tu suscripción antes de esa fecha y todo seguirá como hasta ahora.',
            ],
      action: 'Reactivar suscripción',
      note: 'No volveremos a cobrarte, salvo que reactives tu suscripción.',
      ignore:
        'Si no has cancelado tu suscripción, ponte en contacto con nuestro equipo de soporte.',
    }),
    data_export_ready: ({ expiresAt }) => ({
      subject: 'Tus datos de Shieldline VPN están listos para descargar',
      preview: 'La copia de tus datos que pediste está lista.',
      heading: 'Tus datos están listos',
      paragraphs: [
        'La copia de tus datos de Shieldline VPN que pediste está lista: tu perfil, dispositivos, suscripciones, facturas y más, en un archivo ZIP.',
        'Abre el enlace con la sesión iniciada en tu cuenta para descargarla.',
      ],
      action: 'Descargar tus datos',
      note: `El enlace funciona una sola vez, hasta el ${expiresAt}.`,
      ignore:
        'Si no pediste una copia de tus datos, inicia sesión, cambia tu contraseña e informa a nuestro equipo de soporte.',
    }),
    family_invite: ({ ownerName, expiresOn }) => ({
      subject: 'Te invitan a compartir un plan familiar de Shieldline VPN',
      preview: `${ownerName} quiere compartir su plan de VPN contigo.`,
      heading: 'Únete a un plan familiar',
      paragraphs: [
        `${ownerName} te invita a usar Shieldline VPN con su plan familiar, sin coste para ti.`,
        'Abre la invitación para aceptarla o rechazarla. Si aún no tienes cuenta, primero puedes registrarte con esta dirección de correo.',
      ],
      action: 'Abrir la invitación',
      note: `La invitación es válida hasta el ${expiresOn}.`,
      ignore: 'Si no sabes quién te la envía, puedes ignorar este correo.',
    }),
    billing_refunded: ({ amount, invoiceNumber }) => ({
      subject: 'Tu reembolso de Shieldline VPN está en camino',
      preview: 'El dinero volverá a tu método de pago.',
      heading: 'Tu reembolso está en camino',
      paragraphs: [
        `Hemos emitido un reembolso de ${amount} correspondiente a la factura ${invoiceNumber}.`,
        'El importe se devolverá al método de pago con el que pagaste.',
      ],
      action: 'Ver facturas',
      note: 'Según tu banco o proveedor de pagos, puede tardar unos días hábiles en aparecer en tu extracto.',
      ignore: 'Si no has pedido ningún reembolso, ponte en contacto con nuestro equipo de soporte.',
    }),
  },
};

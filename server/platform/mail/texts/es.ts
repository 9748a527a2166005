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
  },
};
